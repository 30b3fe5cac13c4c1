import { Client } from 'pg';
import { createDatabase, type Database } from '@gatehouse/db';
import {
  createTestDatabase,
  createTestTenant,
  TEST_DATABASE_TIMEOUT_MS,
  type TestDatabase,
} from '@gatehouse/testing';
import { appendAuditEvent, appendAuditEvents } from './append-audit-event';
import { GENESIS_HASH, computeAuditHash, toHex } from './audit-chain-encoding';
import { AuditCheckpointLogger } from './audit-checkpoint-logger';
import type { AuditEventInput } from './audit-event';
import { AuditEventRejectedError } from './audit-event.guard';

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
  actor: { type: 'user', id: `user-${n % 3}`, tokenKind: 'user' },
  action: 'workspaces.rename',
  target: { type: 'workspace', id: `ws-${n}` },
  outcome: 'success',
  data: { name: `name-${n}`, scopes: ['a', 'b'], count: n, flag: true, none: null },
  ...overrides,
});

interface RawRow {
  tenant_id: string;
  seq: string;
  occurred_at: Date;
  actor_type: string;
  actor_id: string | null;
  token_kind: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  outcome: string;
  data: unknown;
  prev_hash: Buffer;
  hash: Buffer;
}

/** The chain as the superuser sees it (no policy applies), checked link by link independently of the verifier. */
async function readChain(tenantId: string): Promise<RawRow[]> {
  const { rows } = await admin.query<RawRow>(
    `SELECT tenant_id::text, seq::text, occurred_at, actor_type, actor_id, token_kind, action, target_type, target_id,
            outcome, data, prev_hash, hash
       FROM audit_events WHERE tenant_id = $1 ORDER BY audit_events.seq`,
    [tenantId],
  );
  return rows;
}

function expectValidChain(rows: RawRow[]): void {
  let prev: Uint8Array = GENESIS_HASH;
  rows.forEach((row, index) => {
    expect(row.seq).toBe(String(index + 1));
    expect(toHex(row.prev_hash)).toBe(toHex(prev));
    const recomputed = computeAuditHash(row.prev_hash, {
      tenantId: row.tenant_id,
      seq: BigInt(row.seq),
      occurredAt: row.occurred_at,
      actorType: row.actor_type,
      actorId: row.actor_id,
      tokenKind: row.token_kind,
      action: row.action,
      targetType: row.target_type,
      targetId: row.target_id,
      outcome: row.outcome,
      data: row.data,
    });
    expect(toHex(recomputed)).toBe(toHex(row.hash));
    prev = row.hash;
  });
}

async function headOf(tenantId: string): Promise<{ seq: string; hash: string } | undefined> {
  const { rows } = await admin.query<{ seq: string; hash: Buffer }>(
    'SELECT seq::text, hash FROM audit_heads WHERE tenant_id = $1',
    [tenantId],
  );
  const row = rows[0];
  return row && { seq: row.seq, hash: toHex(row.hash) };
}

describe('appendAuditEvent', () => {
  it('starts a tenant chain at seq 1 on the genesis hash, links each event, and moves the head', async () => {
    const tenant = await createTestTenant(db);
    const first = await db.withTenant(tenant.id, (tx) => appendAuditEvent(tx, event(1)));
    const second = await db.withTenant(tenant.id, (tx) =>
      appendAuditEvent(tx, event(2, { data: undefined })),
    );
    expect(first.seq).toBe(1n);
    expect(second.seq).toBe(2n);
    const rows = await readChain(tenant.id);
    expect(rows).toHaveLength(2);
    expectValidChain(rows);
    expect(toHex(rows[0]?.prev_hash ?? Buffer.alloc(0))).toBe('0'.repeat(64));
    expect(toHex(rows[0]?.hash ?? Buffer.alloc(0))).toBe(first.hash);
    expect(rows[1]?.data).toEqual({});
    expect(await headOf(tenant.id)).toEqual({ seq: '2', hash: second.hash });
  });

  it('rolls back with the mutation: a failed transaction leaves no event, no gap and the head where it was', async () => {
    const tenant = await createTestTenant(db);
    const kept = await db.withTenant(tenant.id, (tx) => appendAuditEvent(tx, event(1)));
    await expect(
      db.withTenant(tenant.id, async (tx) => {
        await appendAuditEvent(tx, event(2));
        throw new Error('the mutation failed after auditing');
      }),
    ).rejects.toThrow('the mutation failed');
    expect(await headOf(tenant.id)).toEqual({ seq: '1', hash: kept.hash });
    const next = await db.withTenant(tenant.id, (tx) => appendAuditEvent(tx, event(3)));
    expect(next.seq).toBe(2n);
    expectValidChain(await readChain(tenant.id));
  });

  it('refuses secret-looking data before writing anything', async () => {
    const tenant = await createTestTenant(db);
    await expect(
      db.withTenant(tenant.id, (tx) => appendAuditEvent(tx, event(1, { data: { refreshToken: 'x' } }))),
    ).rejects.toThrow(AuditEventRejectedError);
    expect(await readChain(tenant.id)).toHaveLength(0);
  });

  it('refuses to run without a tenant (a bug in the caller)', async () => {
    await expect(db.withoutTenant((tx) => appendAuditEvent(tx, event(1)))).rejects.toThrow(/tenant set/);
  });

  it('gives 50 concurrent appends of one tenant a gapless, valid chain', async () => {
    const tenant = await createTestTenant(db);
    const links = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        db.withTenant(tenant.id, (tx) => appendAuditEvent(tx, event(i)), { maxWaitMs: 30_000 }),
      ),
    );
    expect(links.map((l) => Number(l.seq)).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    const rows = await readChain(tenant.id);
    expect(rows).toHaveLength(50);
    expectValidChain(rows);
    const last = links.find((l) => l.seq === 50n);
    expect(await headOf(tenant.id)).toEqual({ seq: '50', hash: last?.hash });
  });

  it('lets concurrent first appends of a new tenant race on creating the head row', async () => {
    const tenant = await createTestTenant(db);
    await Promise.all(
      Array.from({ length: 8 }, (_, i) => db.withTenant(tenant.id, (tx) => appendAuditEvent(tx, event(i)))),
    );
    const rows = await readChain(tenant.id);
    expect(rows.map((r) => r.seq)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
    expectValidChain(rows);
  });

  it("serializes one tenant's writers only: B appends and commits while A's head is locked, A's second writer waits", async () => {
    const a = await createTestTenant(db);
    const b = await createTestTenant(db);
    await db.withTenant(a.id, (tx) => appendAuditEvent(tx, event(0)));
    await db.withTenant(b.id, (tx) => appendAuditEvent(tx, event(0)));

    let locked: () => void = () => undefined;
    const aLocked = new Promise<void>((resolve) => (locked = resolve));
    let release: () => void = () => undefined;
    const aReleased = new Promise<void>((resolve) => (release = resolve));
    const holder = db.withTenant(
      a.id,
      async (tx) => {
        const link = await appendAuditEvent(tx, event(1));
        locked();
        await aReleased;
        return link;
      },
      { timeoutMs: 30_000 },
    );
    await aLocked;

    // Both writers below refuse to wait for any lock: B succeeds (it never touches A's head row), while a second
    // writer of A is turned away because A's head is held. The timeout is Postgres's, not a test sleep.
    const appendImpatiently = (tenantId: string) =>
      db.withTenant(tenantId, async (tx) => {
        await tx.$executeRaw`SET LOCAL lock_timeout = '250ms'`;
        return appendAuditEvent(tx, event(2));
      });
    const bLink = await appendImpatiently(b.id);
    expect(bLink.seq).toBe(2n);
    expect(await headOf(b.id)).toEqual({ seq: '2', hash: bLink.hash });
    await expect(appendImpatiently(a.id)).rejects.toThrow(/lock timeout|55P03|lock/i);

    // A patient second writer of A completes only after the holder commits, and continues its chain.
    let secondDone = false;
    const second = db
      .withTenant(a.id, (tx) => appendAuditEvent(tx, event(3)), { timeoutMs: 30_000 })
      .then((link) => {
        secondDone = true;
        return link;
      });
    // B still goes through while A's second writer is queued behind the holder.
    await db.withTenant(b.id, (tx) => appendAuditEvent(tx, event(4)));
    expect(secondDone).toBe(false);
    release();
    const held = await holder;
    const after = await second;
    expect(held.seq).toBe(2n);
    expect(after.seq).toBe(3n);
    expectValidChain(await readChain(a.id));
    expectValidChain(await readChain(b.id));
  });

  it('notes the link for the checkpoint logger, which logs it after the transaction committed', async () => {
    const tenant = await createTestTenant(db);
    const lines: Record<string, unknown>[] = [];
    const checkpoints = new AuditCheckpointLogger({ info: (fields) => void lines.push(fields) });
    const link = await checkpoints.run(() =>
      db.withTenant(tenant.id, (tx) => appendAuditEvent(tx, event(1))),
    );
    expect(lines).toEqual([{ event: 'audit.checkpoint', tenantId: tenant.id, seq: '1', hash: link.hash }]);
  });
});

describe('appendAuditEvents', () => {
  it('appends a batch in order after earlier events: consecutive seqs, each linked, the head on the last', async () => {
    const tenant = await createTestTenant(db);
    await db.withTenant(tenant.id, (tx) => appendAuditEvent(tx, event(1)));
    const links = await db.withTenant(tenant.id, (tx) =>
      appendAuditEvents(tx, [
        event(2),
        event(3, { actor: { type: 'token', id: null, tokenKind: 'agent' } }),
        event(4),
      ]),
    );
    expect(links.map((link) => link.seq)).toEqual([2n, 3n, 4n]);
    await db.withTenant(tenant.id, (tx) => appendAuditEvent(tx, event(5)));
    const rows = await readChain(tenant.id);
    expect(rows.map((row) => row.target_id)).toEqual(['ws-1', 'ws-2', 'ws-3', 'ws-4', 'ws-5']);
    expect(rows[2]).toMatchObject({ actor_type: 'token', actor_id: null, token_kind: 'agent' });
    expect(rows[1]?.data).toEqual(event(2).data);
    expectValidChain(rows);
    expect(rows[3] && toHex(rows[3].hash)).toBe(links[2]?.hash);
  });

  it('refuses the whole batch when one event is unsafe, writing nothing', async () => {
    const tenant = await createTestTenant(db);
    await expect(
      db.withTenant(tenant.id, (tx) =>
        appendAuditEvents(tx, [event(1), event(2, { data: { apiKey: 'x' } })]),
      ),
    ).rejects.toBeInstanceOf(AuditEventRejectedError);
    expect(await readChain(tenant.id)).toEqual([]);
  });
});

describe('audit_events grants', () => {
  it('the app role may only read and append: UPDATE, DELETE and TRUNCATE are refused', async () => {
    const tenant = await createTestTenant(db);
    await db.withTenant(tenant.id, (tx) => appendAuditEvent(tx, event(1)));
    const { rows } = await admin.query<{ privilege: string; granted: boolean }>(
      `SELECT p AS privilege, has_table_privilege('gatehouse_app', 'audit_events', p) AS granted
         FROM unnest(ARRAY['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE']) AS p`,
    );
    expect(Object.fromEntries(rows.map((r) => [r.privilege, r.granted]))).toEqual({
      SELECT: true,
      INSERT: true,
      UPDATE: false,
      DELETE: false,
      TRUNCATE: false,
    });

    const app = new Client({ connectionString: testDb.appUrl });
    await app.connect();
    try {
      for (const statement of [
        `UPDATE audit_events SET action = 'forged'`,
        'DELETE FROM audit_events',
        'TRUNCATE audit_events',
      ]) {
        await app.query('BEGIN');
        await app.query(`SELECT set_config('app.tenant_id', $1, true)`, [tenant.id]);
        await expect(app.query(statement)).rejects.toMatchObject({ code: '42501' });
        await app.query('ROLLBACK');
      }
    } finally {
      await app.end();
    }
    expect(await readChain(tenant.id)).toHaveLength(1);
  });
});
