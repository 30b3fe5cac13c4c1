import { Client } from 'pg';
import { ProblemError } from '@gatehouse/platform';
import { createDatabase, type Database } from '@gatehouse/db';
import {
  createTestDatabase,
  createTestTenant,
  TEST_DATABASE_TIMEOUT_MS,
  type TestDatabase,
} from '@gatehouse/testing';
import type { TenantPrincipal } from '../auth/principal';
import { appendAuditEvent } from './append-audit-event';
import type { AuditEventInput } from './audit-event';
import { GetAuditHeadUseCase } from './get-audit-head.use-case';
import { ListAuditEventsUseCase } from './list-audit-events.use-case';
import { VerifyAuditChainUseCase } from './verify-audit-chain.use-case';

let testDb: TestDatabase;
let db: Database;
let admin: Client;

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 4 });
  admin = new Client({ connectionString: testDb.adminUrl });
  await admin.connect();
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await Promise.all([db?.close(), admin?.end()]);
  await testDb?.drop();
}, TEST_DATABASE_TIMEOUT_MS);

function principalOf(tenantId: string): TenantPrincipal {
  return {
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
}

const event = (n: number, overrides: Partial<AuditEventInput> = {}): AuditEventInput => ({
  actor: { type: 'user', id: n % 2 === 0 ? 'alice' : 'bob', tokenKind: null },
  action: n % 3 === 0 ? 'workspaces.create' : 'workspaces.rename',
  target: { type: 'workspace', id: `ws-${n % 4}` },
  outcome: 'success',
  data: { n, names: [`n${n}`] },
  ...overrides,
});

async function seedChain(length: number): Promise<string> {
  const tenant = await createTestTenant(db);
  for (let i = 1; i <= length; i += 1) await db.withTenant(tenant.id, (tx) => appendAuditEvent(tx, event(i)));
  return tenant.id;
}

const verify = (
  tenantId: string,
  input: { checkpointSeq?: number; checkpointHash?: string } = {},
  batchSize?: number,
) => new VerifyAuditChainUseCase(db, batchSize).execute({ principal: principalOf(tenantId), input });
const head = (tenantId: string) =>
  new GetAuditHeadUseCase(db).execute({ principal: principalOf(tenantId), input: {} });
const list = (
  tenantId: string,
  input: Partial<Parameters<ListAuditEventsUseCase['execute']>[0]['input']> = {},
) =>
  new ListAuditEventsUseCase(db).execute({
    principal: principalOf(tenantId),
    input: { limit: 50, ...input },
  });

describe('audit.head', () => {
  it('exports seq 0 and the genesis hash for an empty chain, then the newest link', async () => {
    const empty = await createTestTenant(db);
    expect(await head(empty.id)).toMatchObject({ tenantId: empty.id, seq: 0, hash: '0'.repeat(64) });
    const tenantId = await createTestTenant(db).then((t) => t.id);
    const link = await db.withTenant(tenantId, (tx) => appendAuditEvent(tx, event(1)));
    const exported = await head(tenantId);
    expect(exported).toMatchObject({ tenantId, seq: 1, hash: link.hash });
    expect(Number.isNaN(Date.parse(exported.at))).toBe(false);
  });
});

describe('audit.verify', () => {
  it('accepts an intact chain read in several batches, and the checkpoint it exported', async () => {
    const tenantId = await seedChain(7);
    const exported = await head(tenantId);
    const result = await verify(tenantId, { checkpointSeq: exported.seq, checkpointHash: exported.hash }, 3);
    expect(result).toEqual({
      ok: true,
      checkedRows: 7,
      headSeq: 7,
      headHash: exported.hash,
      firstBadSeq: null,
      problem: null,
    });
    expect(await verify(await createTestTenant(db).then((t) => t.id))).toMatchObject({
      ok: true,
      checkedRows: 0,
      headSeq: 0,
    });
  });

  it('names a row the database owner edited (hash_mismatch)', async () => {
    const tenantId = await seedChain(6);
    await admin.query(
      `UPDATE audit_events SET action = 'workspaces.delete' WHERE tenant_id = $1 AND seq = 4`,
      [tenantId],
    );
    expect(await verify(tenantId, {}, 2)).toMatchObject({
      ok: false,
      problem: 'hash_mismatch',
      firstBadSeq: 4,
      checkedRows: 3,
    });
  });

  it('names a row edited inside its JSON data', async () => {
    const tenantId = await seedChain(3);
    await admin.query(
      `UPDATE audit_events SET data = '{"n": 2, "names": ["forged"]}' WHERE tenant_id = $1 AND seq = 2`,
      [tenantId],
    );
    expect(await verify(tenantId)).toMatchObject({ ok: false, problem: 'hash_mismatch', firstBadSeq: 2 });
  });

  it('names a deleted middle row (sequence_gap)', async () => {
    const tenantId = await seedChain(5);
    await admin.query('DELETE FROM audit_events WHERE tenant_id = $1 AND seq = 3', [tenantId]);
    expect(await verify(tenantId)).toMatchObject({ ok: false, problem: 'sequence_gap', firstBadSeq: 3 });
  });

  it('names the deleted newest row from the head row alone (truncated)', async () => {
    const tenantId = await seedChain(4);
    await admin.query('DELETE FROM audit_events WHERE tenant_id = $1 AND seq = 4', [tenantId]);
    expect(await verify(tenantId)).toMatchObject({
      ok: false,
      problem: 'truncated',
      firstBadSeq: 4,
      headSeq: 4,
    });
  });

  it('names the deleted newest row with the previous checkpoint, even when the head was rewound too', async () => {
    const tenantId = await seedChain(5);
    const checkpoint = await head(tenantId);
    await admin.query('BEGIN');
    await admin.query('DELETE FROM audit_events WHERE tenant_id = $1 AND seq = 5', [tenantId]);
    await admin.query(
      `UPDATE audit_heads h SET seq = e.seq, hash = e.hash FROM audit_events e
        WHERE h.tenant_id = $1 AND e.tenant_id = $1 AND e.seq = 4`,
      [tenantId],
    );
    await admin.query('COMMIT');
    // Inside the database everything agrees again: only the checkpoint kept outside tells.
    expect(await verify(tenantId)).toMatchObject({ ok: true, checkedRows: 4, headSeq: 4 });
    expect(
      await verify(tenantId, { checkpointSeq: checkpoint.seq, checkpointHash: checkpoint.hash }),
    ).toMatchObject({
      ok: false,
      problem: 'truncated',
      firstBadSeq: 5,
    });
  });

  it('names a rewritten chain that no longer holds the checkpointed hash (checkpoint_mismatch)', async () => {
    const tenantId = await seedChain(3);
    const checkpoint = await head(tenantId);
    const forged = checkpoint.hash.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'));
    expect(await verify(tenantId, { checkpointSeq: 3, checkpointHash: forged })).toMatchObject({
      ok: false,
      problem: 'checkpoint_mismatch',
      firstBadSeq: 3,
    });
  });

  it('names a head row that disagrees with the last event', async () => {
    const tenantId = await seedChain(3);
    await admin.query(`UPDATE audit_heads SET hash = decode(repeat('ab', 32), 'hex') WHERE tenant_id = $1`, [
      tenantId,
    ]);
    expect(await verify(tenantId)).toMatchObject({
      ok: false,
      problem: 'checkpoint_mismatch',
      firstBadSeq: 3,
    });
  });

  it('refuses half a checkpoint as validation_failed', async () => {
    const tenantId = await seedChain(1);
    await expect(verify(tenantId, { checkpointSeq: 1 })).rejects.toMatchObject({
      status: 400,
      code: 'validation_failed',
    });
  });

  it("never sees another tenant's rows", async () => {
    const a = await seedChain(3);
    const b = await seedChain(2);
    expect(await verify(b)).toMatchObject({ ok: true, checkedRows: 2, headSeq: 2 });
    expect(await verify(a)).toMatchObject({ ok: true, checkedRows: 3, headSeq: 3 });
  });
});

describe('audit.list', () => {
  let tenantId: string;
  beforeAll(async () => {
    tenantId = await seedChain(12);
  });

  it('pages newest first with a cursor until the end', async () => {
    const seen: number[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await list(tenantId, { limit: 5, ...(cursor ? { cursor } : {}) });
      seen.push(...page.items.map((i) => i.seq));
      if (page.nextCursor === null) break;
      cursor = page.nextCursor;
    }
    expect(seen).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
  });

  it('returns the documented item shape', async () => {
    const page = await list(tenantId, { limit: 1 });
    expect(page.items[0]).toEqual({
      id: expect.any(String),
      seq: 12,
      occurredAt: expect.stringMatching(/Z$/),
      actorType: 'user',
      actorId: 'alice',
      tokenKind: null,
      action: 'workspaces.create',
      targetType: 'workspace',
      targetId: 'ws-0',
      outcome: 'success',
      data: { n: 12, names: ['n12'] },
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it('filters by actor, action, target and time, and paginates within a filter', async () => {
    const byActor = await list(tenantId, { actorId: 'bob' });
    expect(byActor.items.map((i) => i.seq)).toEqual([11, 9, 7, 5, 3, 1]);
    const byAction = await list(tenantId, { action: 'workspaces.create' });
    expect(byAction.items.map((i) => i.seq)).toEqual([12, 9, 6, 3]);
    const byTarget = await list(tenantId, { targetType: 'workspace', targetId: 'ws-1' });
    expect(byTarget.items.map((i) => i.seq)).toEqual([9, 5, 1]);
    const firstPage = await list(tenantId, { actorId: 'bob', limit: 4 });
    const secondPage = await list(tenantId, {
      actorId: 'bob',
      limit: 4,
      cursor: firstPage.nextCursor ?? undefined,
    });
    expect([...firstPage.items, ...secondPage.items].map((i) => i.seq)).toEqual([11, 9, 7, 5, 3, 1]);
    expect(secondPage.nextCursor).toBeNull();

    const all = await list(tenantId);
    const at = (seq: number) => all.items.find((i) => i.seq === seq)?.occurredAt as string;
    // `from` is inclusive and `to` exclusive (several events may share a millisecond, hence the computed set).
    const window = await list(tenantId, { from: at(4), to: at(8) });
    const expected = all.items.filter((i) => i.occurredAt >= at(4) && i.occurredAt < at(8)).map((i) => i.seq);
    expect(window.items.map((i) => i.seq)).toEqual(expected);
    expect(expected).toContain(4);
    expect(expected).not.toContain(8);
  });

  it('answers a bad cursor with bad_cursor (400)', async () => {
    for (const cursor of ['nope', Buffer.from('a1.x').toString('base64url')]) {
      const failure = await list(tenantId, { cursor }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ProblemError);
      expect(failure).toMatchObject({ status: 400, code: 'bad_cursor' });
    }
  });
});
