import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createTestDatabase, TEST_DATABASE_TIMEOUT_MS, type TestDatabase } from '@gatehouse/testing';
import { createDatabase, type Database } from '../database';
import { insertGatewayToken, revokeGatewayToken } from '../operator/gateway-token-operator';
import { seedTenantRows, type TenantRows } from '../tenancy/tenant-rows.fixtures';
import {
  appendRevocationEvent,
  listUnpublishedRevocationEvents,
  markRevocationEventsPublished,
  readRevocationEventsSince,
  sequenceRevocationEvents,
  toRevocationEvent,
} from './revocation-ledger.repository';

jest.setTimeout(TEST_DATABASE_TIMEOUT_MS);

let testDb: TestDatabase;
let db: Database;
let admin: Client;
let a: TenantRows;
let b: TenantRows;

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 4 });
  admin = new Client({ connectionString: testDb.adminUrl });
  await admin.connect();
  a = await seedTenantRows(db, 'alpha');
  b = await seedTenantRows(db, 'bravo');
  // The fixture appends one event per tenant: give them their positions so each test starts from a known head.
  await db.lookup((query) => sequenceRevocationEvents(query));
});

afterAll(async () => {
  await Promise.all([db?.close(), admin?.end()]);
  await testDb?.drop();
});

async function ledgerRows(): Promise<{ kind: string; tenant_id: string | null; seq: string | null }[]> {
  return (await admin.query('SELECT kind, tenant_id, seq FROM revocation_events ORDER BY id')).rows;
}

async function heads(): Promise<{ platform: number; a: number; b: number }> {
  const platform = await readRevocationEventsSince(db, { stream: 'platform' }, 0, 1);
  const ta = await readRevocationEventsSince(db, { stream: 'tenant', tenantId: a.tenantId }, 0, 1);
  const tb = await readRevocationEventsSince(db, { stream: 'tenant', tenantId: b.tenantId }, 0, 1);
  return { platform: platform.head, a: ta.head, b: tb.head };
}

describe('appendRevocationEvent', () => {
  it('writes the event with the change, and the rollback of the change takes the event with it', async () => {
    const before = (await ledgerRows()).length;
    await expect(
      db.withTenant(a.tenantId, async (tx) => {
        await tx.hostPolicy.update({ where: { tenantId: a.tenantId }, data: { fourEyes: false } });
        await appendRevocationEvent(tx, { kind: 'host_policy_changed' });
        throw new Error('the change fails after the append');
      }),
    ).rejects.toThrow('the change fails after the append');
    expect((await ledgerRows()).length).toBe(before);

    await db.withTenant(a.tenantId, async (tx) => {
      await tx.hostPolicy.update({ where: { tenantId: a.tenantId }, data: { fourEyes: false } });
      await appendRevocationEvent(tx, {
        kind: 'workspace_trust_changed',
        subject: { workspaceId: a.workspaceId },
      });
    });
    const rows = await ledgerRows();
    expect(rows.length).toBe(before + 1);
    expect(rows.at(-1)).toEqual({ kind: 'workspace_trust_changed', tenant_id: a.tenantId, seq: null });
  });

  it('wakes the after-commit listeners on commit only', async () => {
    const woken: string[] = [];
    const off = db.onRevocationsAppended(() => woken.push('appended'));
    try {
      await db
        .withTenant(a.tenantId, async (tx) => {
          await appendRevocationEvent(tx, { kind: 'host_policy_changed' });
          throw new Error('rolled back');
        })
        .catch(() => undefined);
      expect(woken).toEqual([]);
      await db.withTenant(a.tenantId, async (tx) => {
        await tx.workspace.findMany();
      });
      expect(woken).toEqual([]);
      await db.withTenant(a.tenantId, (tx) => appendRevocationEvent(tx, { kind: 'host_policy_changed' }));
      expect(woken).toEqual(['appended']);
    } finally {
      off();
    }
  });

  it('refuses a subject outside the contract and a unit of work without a tenant (bugs, thrown)', async () => {
    await expect(
      db.withTenant(a.tenantId, (tx) =>
        appendRevocationEvent(tx, {
          kind: 'host_policy_changed',
          subject: { secret: 'x' } as unknown as { workspaceId: string },
        }),
      ),
    ).rejects.toThrow();
    await expect(
      db.withoutTenant((tx) => appendRevocationEvent(tx, { kind: 'host_policy_changed' })),
    ).rejects.toThrow('needs a tenant');
  });
});

describe('positions', () => {
  it('are assigned after commit, gapless, in the order committed rows are first seen (not insert order)', async () => {
    await db.lookup((query) => sequenceRevocationEvents(query));
    const start = await heads();
    // A rolled-back append consumes an id but never a position.
    await db
      .withTenant(b.tenantId, async (tx) => {
        await appendRevocationEvent(tx, { kind: 'host_policy_changed' });
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    // A transaction that appended first but commits last: its row is invisible to the sequencer until then.
    let releaseSlow: () => void = () => undefined;
    const slowMayCommit = new Promise<void>((resolve) => (releaseSlow = resolve));
    let slowAppended: () => void = () => undefined;
    const slowHasAppended = new Promise<void>((resolve) => (slowAppended = resolve));
    const slow = db.withTenant(a.tenantId, async (tx) => {
      await appendRevocationEvent(tx, { kind: 'overlay_changed', subject: { serverName: 'slow' } });
      slowAppended();
      await slowMayCommit;
    });
    await slowHasAppended;
    await db.withTenant(a.tenantId, (tx) =>
      appendRevocationEvent(tx, { kind: 'overlay_changed', subject: { serverName: 'fast' } }),
    );
    await db.withTenant(b.tenantId, (tx) =>
      appendRevocationEvent(tx, { kind: 'variable_changed', subject: { userId: b.userId } }),
    );
    expect(await db.lookup((query) => sequenceRevocationEvents(query))).toBe(2);
    releaseSlow();
    await slow;
    expect(await db.lookup((query) => sequenceRevocationEvents(query))).toBe(1);

    const platform = await readRevocationEventsSince(db, { stream: 'platform' }, start.platform, 100);
    expect(platform.rows.map((r) => [r.seq, r.tenantId, r.subject])).toEqual([
      [start.platform + 1, a.tenantId, { serverName: 'fast' }],
      [start.platform + 2, b.tenantId, { userId: b.userId }],
      [start.platform + 3, a.tenantId, { serverName: 'slow' }],
    ]);
    expect(platform.head).toBe(start.platform + 3);

    const ofA = await readRevocationEventsSince(db, { stream: 'tenant', tenantId: a.tenantId }, start.a, 100);
    expect(ofA.rows.map((r) => toRevocationEvent(r, 'tenant')?.seq)).toEqual([start.a + 1, start.a + 2]);
    expect(ofA.rows.every((r) => r.tenantId === a.tenantId)).toBe(true);
    expect(ofA.head).toBe(start.a + 2);
    const ofB = await readRevocationEventsSince(db, { stream: 'tenant', tenantId: b.tenantId }, start.b, 100);
    expect(ofB.rows.map((r) => toRevocationEvent(r, 'tenant'))).toEqual([
      {
        seq: start.b + 1,
        tenantId: b.tenantId,
        kind: 'variable_changed',
        subject: { userId: b.userId },
        occurredAt: expect.any(String),
      },
    ]);
  });

  it('never repeat under concurrent sequencers', async () => {
    for (let i = 0; i < 20; i += 1) {
      await db.withTenant(i % 2 ? a.tenantId : b.tenantId, (tx) =>
        appendRevocationEvent(tx, { kind: 'definition_changed' }),
      );
    }
    const counts = await Promise.all(
      Array.from({ length: 4 }, () => db.lookup((query) => sequenceRevocationEvents(query, 3))),
    );
    while ((await db.lookup((query) => sequenceRevocationEvents(query, 3))) > 0) counts.push(0);
    const all = (await admin.query<{ seq: string }>('SELECT seq FROM revocation_events ORDER BY seq')).rows;
    expect(all.map((r) => Number(r.seq))).toEqual(all.map((_, index) => index + 1));
    for (const tenantId of [a.tenantId, b.tenantId]) {
      const own = (
        await admin.query<{ tenant_seq: string }>(
          'SELECT tenant_seq FROM revocation_events WHERE tenant_id = $1 ORDER BY tenant_seq',
          [tenantId],
        )
      ).rows;
      expect(own.map((r) => Number(r.tenant_seq))).toEqual(own.map((_, index) => index + 1));
    }
  });
});

describe('the relay work list', () => {
  it('lists sequenced, unpublished events in order until they are marked published', async () => {
    await db.lookup((query) => sequenceRevocationEvents(query));
    const unpublished = await db.lookup((query) => listUnpublishedRevocationEvents(query, 1000));
    expect(unpublished.length).toBeGreaterThan(0);
    const seqs = unpublished.map((r) => r.seq);
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    const through = seqs[1] ?? seqs[0] ?? 0;
    await db.lookup((query) => markRevocationEventsPublished(query, through));
    const rest = await db.lookup((query) => listUnpublishedRevocationEvents(query, 1000));
    expect(rest.map((r) => r.seq)).toEqual(seqs.filter((seq) => seq > through));
  });
});

describe('the operator revoking a gateway token', () => {
  it('appends a platform event (no tenant) in the same statement, seen only in the platform stream', async () => {
    const id = await insertGatewayToken({
      ownerUrl: testDb.ownerUrl,
      name: 'edge',
      scopes: [],
      pool: null,
      secretHash: randomBytes(32),
      prefix: 'gh_g_y',
      expiresAt: null,
    });
    const start = await heads();
    expect(await revokeGatewayToken({ ownerUrl: testDb.ownerUrl, id })).toBe(true);
    expect(await revokeGatewayToken({ ownerUrl: testDb.ownerUrl, id })).toBe(false);
    await db.lookup((query) => sequenceRevocationEvents(query));
    const platform = await readRevocationEventsSince(db, { stream: 'platform' }, start.platform, 100);
    expect(platform.rows.map((r) => toRevocationEvent(r, 'platform'))).toEqual([
      {
        seq: start.platform + 1,
        tenantId: null,
        kind: 'token_revoked',
        subject: { tokenIds: [id] },
        occurredAt: expect.any(String),
      },
    ]);
    expect(await heads()).toEqual({ ...start, platform: start.platform + 1 });
  });
});
