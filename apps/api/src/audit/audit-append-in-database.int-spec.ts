import fc from 'fast-check';
import { Client } from 'pg';
import { createDatabase, type Database } from '@gatehouse/db';
import {
  createTestDatabase,
  createTestTenant,
  TEST_DATABASE_TIMEOUT_MS,
  type TestDatabase,
} from '@gatehouse/testing';
import type { TenantPrincipal } from '../auth/principal';
import { appendAuditEvent } from './append-audit-event';
import {
  AUDIT_HEAD,
  NO_AUDIT_HEAD,
  auditAppendCall,
  noteAppendedLink,
  type AppendedLinkRow,
} from './audit-append-statements';
import {
  GENESIS_HASH,
  canonicalJson,
  computeAuditHash,
  toHex,
  type AuditHashFields,
} from './audit-chain-encoding';
import type { AuditEventInput } from './audit-event';
import { AuditEventRejectedError } from './audit-event.guard';
import { VerifyAuditChainUseCase } from './verify-audit-chain.use-case';

// The audit link computed in the database (audit_event_hash_v1, audit_append_v1; decision 0100) is decision
// 0010's encoding byte for byte: the same hash as computeAuditHash for any row, links the verifier accepts
// between rows of either side, gapless under concurrent writers, within the tenant's row-level security.

let testDb: TestDatabase;
let db: Database;
let admin: Client;

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 12 });
  admin = new Client({ connectionString: testDb.adminUrl });
  await admin.connect();
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await Promise.all([db?.close(), admin?.end()]);
  await testDb?.drop();
}, TEST_DATABASE_TIMEOUT_MS);

const event = (n: number, overrides: Partial<AuditEventInput> = {}): AuditEventInput => ({
  actor: { type: 'token', id: `token-${n % 3}`, tokenKind: n % 2 === 0 ? 'worker' : null },
  action: 'leases.issued',
  target: { type: 'lease', id: n % 4 === 0 ? null : `lease-${n}` },
  outcome: 'success',
  data: { n, server: `sérvér-${n} ✓`, flags: ['a', 'b'], none: null, ok: true },
  ...overrides,
});

/** One append by the database, locked as lease issuance locks it: the head, then the appending statement. */
async function appendInDatabase(tenantId: string, input: AuditEventInput): Promise<AppendedLinkRow> {
  const call = auditAppendCall(input, 1);
  const [, rows] = await db.writeInTenant(tenantId, [
    AUDIT_HEAD.lock,
    { text: `SELECT link_seq::text AS link_seq, link_hash FROM ${call.sql}`, values: call.values },
  ]);
  const row = (rows as AppendedLinkRow[] | undefined)?.[0];
  if (row === undefined) throw new Error('audit_append_v1 answered no row');
  return row;
}

async function tenantWithHead(): Promise<string> {
  const tenant = await createTestTenant(db);
  await db.writeInTenant(tenant.id, [AUDIT_HEAD.create]);
  return tenant.id;
}

const verify = (tenantId: string) => {
  const principal: TenantPrincipal = {
    type: 'tenant',
    tenantId,
    tenantSlug: 't',
    userId: null,
    role: 'owner',
    via: 'session',
    sessionId: null,
    tokenId: null,
    scopes: ['audit:read'],
    workspaceIds: [],
    pool: null,
  };
  return new VerifyAuditChainUseCase(db).execute({ principal, input: {} });
};

async function sqlHash(prev: Uint8Array, fields: AuditHashFields): Promise<string> {
  const { rows } = await admin.query<{ hash: Buffer }>(
    `SELECT audit_event_hash_v1($1, $2::uuid, $3::bigint, $4, $5, $6, $7, $8, $9, $10, $11, $12) AS hash`,
    [
      Buffer.from(prev),
      fields.tenantId,
      fields.seq.toString(),
      fields.occurredAt,
      fields.actorType,
      fields.actorId,
      fields.tokenKind,
      fields.action,
      fields.targetType,
      fields.targetId,
      fields.outcome,
      canonicalJson(fields.data),
    ],
  );
  return toHex(rows[0]?.hash ?? Buffer.alloc(0));
}

describe('audit_event_hash_v1', () => {
  it("is decision 0010's pinned vector, the hash computeAuditHash pins", async () => {
    const pinned: AuditHashFields = {
      tenantId: '6f1c0c1e-8f57-4a8e-9d1b-2a3b4c5d6e7f',
      seq: 1n,
      occurredAt: new Date('2026-01-02T03:04:05.678Z'),
      actorType: 'user',
      actorId: 'u-1',
      tokenKind: null,
      action: 'workspaces.create',
      targetType: 'workspace',
      targetId: 'w-1',
      outcome: 'success',
      data: { name: 'alpha', tags: ['a', 'b'] },
    };
    expect(await sqlHash(GENESIS_HASH, pinned)).toBe(
      'a5031e5a35883f88a6c16eae2a2f50516de63889f9ea5d6c6dc828d9ce24c792',
    );
  });

  it('is computeAuditHash for any row (property: text of any script, nulls, empty strings, any millisecond)', async () => {
    // Postgres text holds no NUL; everything else of Unicode (astral planes, combining marks) is fair.
    const text = fc.string({ unit: 'grapheme', maxLength: 40 }).map((s) => s.replace(/\0/g, ''));
    const nullable = fc.option(text, { nil: null });
    const row = fc.record({
      tenantId: fc.uuid(),
      seq: fc.bigInt({ min: 1n, max: 9_007_199_254_740_993n }),
      occurredAt: fc.integer({ min: 0, max: 253_402_300_799_999 }).map((ms) => new Date(ms)),
      actorType: text,
      actorId: nullable,
      tokenKind: nullable,
      action: text,
      targetType: text,
      targetId: nullable,
      outcome: text,
      data: fc.dictionary(
        text,
        fc.oneof(text, fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean()),
      ),
    });
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 32, maxLength: 32 }), row, async (prev, fields) => {
        expect(await sqlHash(prev, fields)).toBe(toHex(computeAuditHash(prev, fields)));
      }),
      { numRuns: 300 },
    );
  });
});

describe('audit_append_v1', () => {
  it('appends links the verifier accepts, between rows the JS append wrote, and moves the head', async () => {
    const tenantId = await tenantWithHead();
    await db.withTenant(tenantId, (tx) => appendAuditEvent(tx, event(1)));
    const second = await appendInDatabase(tenantId, event(2));
    const third = await appendInDatabase(
      tenantId,
      event(3, { actor: { type: 'system', id: null, tokenKind: null } }),
    );
    await db.withTenant(tenantId, (tx) => appendAuditEvent(tx, event(4)));
    expect([second.link_seq, third.link_seq]).toEqual(['2', '3']);

    const { rows } = await admin.query<{ seq: string; hash: Buffer; data: unknown; occurred_at: Date }>(
      'SELECT seq::text, hash, data, occurred_at FROM audit_events WHERE tenant_id = $1 ORDER BY seq',
      [tenantId],
    );
    expect(rows.map((r) => r.seq)).toEqual(['1', '2', '3', '4']);
    expect(toHex(rows[1]?.hash ?? Buffer.alloc(0))).toBe(toHex(second.link_hash));
    expect(rows[1]?.data).toEqual(event(2).data);
    // Time grows with seq whichever side read the clock.
    const times = rows.map((r) => r.occurred_at.getTime());
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(await verify(tenantId)).toMatchObject({ ok: true, checkedRows: 4, headSeq: 4, problem: null });
    expect(noteAppendedLink(tenantId, third)).toEqual({ seq: 3n, hash: toHex(third.link_hash) });
  });

  it('gives concurrent appends of one tenant, by either side, a gapless chain that verifies', async () => {
    const tenantId = await tenantWithHead();
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        i % 3 === 0
          ? db.withTenant(tenantId, (tx) => appendAuditEvent(tx, event(i)))
          : appendInDatabase(tenantId, event(i)),
      ),
    );
    expect(await verify(tenantId)).toMatchObject({ ok: true, checkedRows: 30, headSeq: 30, problem: null });
  });

  it('writes nothing for a tenant without a head (no_data_found), nor outside a tenant', async () => {
    const bare = await createTestTenant(db);
    await expect(appendInDatabase(bare.id, event(1))).rejects.toMatchObject({ code: NO_AUDIT_HEAD });
    const call = auditAppendCall(event(1), 1);
    await expect(
      db.withoutTenant((tx) => tx.$queryRawUnsafe(`SELECT * FROM ${call.sql}`, ...call.values)),
    ).rejects.toThrow(/no audit head/);
    const { rows } = await admin.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM audit_events WHERE tenant_id = $1',
      [bare.id],
    );
    expect(rows[0]?.n).toBe(0);
  });

  it("appends to its own tenant's chain only, and rolls back with its transaction", async () => {
    const mine = await tenantWithHead();
    const other = await tenantWithHead();
    await appendInDatabase(other, event(1));
    const call = auditAppendCall(event(2), 1);
    await expect(
      db.writeInTenant(mine, [
        AUDIT_HEAD.lock,
        { text: `SELECT * FROM ${call.sql}`, values: call.values },
        { text: 'SELECT 1/0', values: [] },
      ]),
    ).rejects.toMatchObject({ code: '22012' });
    await appendInDatabase(mine, event(3));
    const { rows } = await admin.query<{ tenant_id: string; seq: string }>(
      'SELECT tenant_id::text, seq::text FROM audit_heads WHERE tenant_id = ANY($1::uuid[]) ORDER BY seq',
      [[mine, other]],
    );
    expect(rows).toEqual(
      expect.arrayContaining([
        { tenant_id: mine, seq: '1' },
        { tenant_id: other, seq: '1' },
      ]),
    );
    expect(await verify(mine)).toMatchObject({ ok: true, checkedRows: 1 });
    expect(await verify(other)).toMatchObject({ ok: true, checkedRows: 1 });
  });

  it('refuses secret-looking data before anything is sent, as the JS append does', () => {
    expect(() => auditAppendCall(event(1, { data: { password: 'x' } }), 1)).toThrow(AuditEventRejectedError);
  });
});
