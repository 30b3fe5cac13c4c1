import { createDatabase, type Database, type TenantReadQuery } from '@gatehouse/db';
import {
  createTestDatabase,
  createTestTenant,
  TEST_DATABASE_TIMEOUT_MS,
  type TestDatabase,
} from '@gatehouse/testing';
import { Client } from 'pg';
import { auditAppendCall } from '../audit/audit-append-statements';
import { VerifyAuditChainUseCase } from '../audit/verify-audit-chain.use-case';
import type { TenantPrincipal } from '../auth/principal';
import { LeaseGrantBatcher } from './lease-grant-batcher';

// The group commit of lease grants (decision 0100): grants of one tenant that arrive together share one
// transaction after the head's lock, each answered its own rows; a failing grant fails only itself; a tenant's
// first grant creates its audit head; the chain they append verifies.

let testDb: TestDatabase;
let db: Database;
let admin: Client;

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 6 });
  admin = new Client({ connectionString: testDb.adminUrl });
  await admin.connect();
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await Promise.all([db?.close(), admin?.end()]);
  await testDb?.drop();
}, TEST_DATABASE_TIMEOUT_MS);

/** A grant's statement as lease issuance shapes it: its audit row appended by the database, plus its txid. */
function appending(n: number): TenantReadQuery {
  const call = auditAppendCall(
    {
      actor: { type: 'token', id: `token-${n}`, tokenKind: 'worker' },
      action: 'leases.issued',
      target: { type: 'lease', id: `lease-${n}` },
      outcome: 'success',
      data: { n },
    },
    1,
  );
  return {
    text: `SELECT a.link_seq::text AS link_seq, txid_current()::text AS tx, $${call.values.length + 1}::int AS n
             FROM ${call.sql} AS a`,
    values: [...call.values, n],
  };
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

type Answer = { link_seq: string; tx: string; n: number }[];

describe('LeaseGrantBatcher', () => {
  it("commits a tenant's concurrent grants together, each answered its own rows, creating the head first", async () => {
    const tenant = await createTestTenant(db);
    const batcher = new LeaseGrantBatcher(db);
    const answers = (await Promise.all(
      Array.from({ length: 12 }, (_, n) => batcher.grant(tenant.id, appending(n))),
    )) as Answer[];
    expect(answers.map((rows) => rows[0]?.n)).toEqual(Array.from({ length: 12 }, (_, n) => n));
    // In arrival order on the chain: the first alone (nothing was in flight), the rest together behind it.
    expect(answers.map((rows) => rows[0]?.link_seq)).toEqual(
      Array.from({ length: 12 }, (_, n) => String(n + 1)),
    );
    const transactions = new Set(answers.map((rows) => rows[0]?.tx));
    expect(transactions.size).toBe(2);
    expect(await verify(tenant.id)).toMatchObject({ ok: true, checkedRows: 12 });
  });

  it('fails only the grant that fails: the rest of its batch is committed alone', async () => {
    const tenant = await createTestTenant(db);
    const batcher = new LeaseGrantBatcher(db);
    const failing: TenantReadQuery = { text: 'SELECT 1/0', values: [] };
    const outcomes = await Promise.allSettled([
      batcher.grant(tenant.id, appending(0)),
      batcher.grant(tenant.id, appending(1)),
      batcher.grant(tenant.id, failing),
      batcher.grant(tenant.id, appending(3)),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(outcomes[2]).toMatchObject({ reason: { code: '22012' } });
    expect(await verify(tenant.id)).toMatchObject({ ok: true, checkedRows: 3 });
  });

  it("keeps tenants apart: each grant runs in its own tenant's transaction and chain", async () => {
    const [one, two] = [await createTestTenant(db), await createTestTenant(db)];
    const batcher = new LeaseGrantBatcher(db);
    const tenantOf: TenantReadQuery = {
      text: "SELECT current_setting('app.tenant_id', true) AS tenant",
      values: [],
    };
    const answers = await Promise.all([
      batcher.grant(one.id, tenantOf),
      batcher.grant(two.id, tenantOf),
      batcher.grant(one.id, appending(1)),
      batcher.grant(two.id, appending(1)),
    ]);
    expect(answers.slice(0, 2)).toEqual([[{ tenant: one.id }], [{ tenant: two.id }]]);
    const { rows } = await admin.query<{ tenant_id: string; seq: string }>(
      'SELECT tenant_id::text, seq::text FROM audit_heads WHERE tenant_id = ANY($1::uuid[])',
      [[one.id, two.id]],
    );
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.seq === '1')).toBe(true);
  });
});
