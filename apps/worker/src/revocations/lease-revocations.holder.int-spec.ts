import { Client } from 'pg';
import {
  RedisConnections,
  closeRedis,
  createRedisConnection,
  revocationChannel,
} from '@gatehouse/coordination';
import { HeldLeases, LeaseApiClient } from '@gatehouse/lease-holder';
import { createLogger } from '@gatehouse/platform';
import {
  createTestDatabase,
  startDedicatedRedis,
  TEST_DATABASE_TIMEOUT_MS,
  type DedicatedRedis,
  type TestDatabase,
} from '@gatehouse/testing';
import type { Redis } from 'ioredis';
import type { CatalogRefreshOutcome } from '../catalog-refresh/catalog-refresh-processor.js';
import type { WorkerConfig } from '../config/worker.config.js';
import { WORKER_CONFIG } from '../infrastructure/infrastructure-tokens.js';
import { LeaseRevocationsHolder } from './lease-revocations.holder.js';
import {
  processGroupAlive,
  startLeaseHolderScenario,
  type LeaseHolderScenario,
} from './test-support/lease-holder-scenario.js';

// The worker as a lease holder when Redis fails it (decision 0073;
// docs/architecture/leases-and-revocation.md). Real API, real worker, real Postgres, and a redis-server of
// this file's own (so it can be cut off and restarted without touching the shared one). A catalog refresh
// holds a lease on a stdio server that never finishes discovery; the approval is revoked while the holder
// cannot hear Redis; once it can again, it catches up from `GET /v1/revocations?since=`, drops the lease and
// closes the connection (the child's process group is gone).

jest.setTimeout(120_000);

const silent = createLogger({ name: 'lease-holder-test', level: 'silent' });

let testDb: TestDatabase;
let redis: DedicatedRedis;
let admin: Redis;
let scenario: LeaseHolderScenario;

beforeAll(async () => {
  testDb = await createTestDatabase();
  redis = await startDedicatedRedis();
  admin = createRedisConnection({ url: redis.url, name: 'holder-test-admin', purpose: 'command' });
  scenario = await startLeaseHolderScenario({ testDb, redisUrl: redis.url, logger: silent });
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await scenario?.close();
  if (admin) await closeRedis(admin);
  await redis?.stop();
  await testDb?.drop();
}, TEST_DATABASE_TIMEOUT_MS);

/** A refresh under way, and whether it has ended yet (read without awaiting it). */
function track(outcome: Promise<CatalogRefreshOutcome>): {
  outcome: Promise<CatalogRefreshOutcome>;
  ended(): boolean;
} {
  let ended = false;
  const settled = outcome.finally(() => {
    ended = true;
  });
  return { outcome: settled, ended: () => ended };
}

/** CLIENT LIST as one entry per connection: its id and name. */
async function clients(): Promise<{ id: string; name: string }[]> {
  const list = (await admin.client('LIST')) as string;
  return list
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => ({
      id: line.match(/(?:^| )id=(\d+)/)?.[1] ?? '',
      name: line.match(/ name=(\S*)/)?.[1] ?? '',
    }));
}

/** The ledger row of an approval's revocation, as the database superuser reads it. */
async function revocationRow(approvalId: string): Promise<{ seq: string | null; published_at: Date | null }> {
  const owner = new Client({ connectionString: testDb.adminUrl });
  await owner.connect();
  try {
    const { rows } = await owner.query<{ seq: string | null; published_at: Date | null }>(
      `SELECT seq, published_at FROM revocation_events
        WHERE kind = 'approval_revoked' AND subject->>'approvalId' = $1`,
      [approvalId],
    );
    if (rows.length !== 1) throw new Error(`expected one ledger row, found ${rows.length}`);
    return rows[0] as { seq: string | null; published_at: Date | null };
  } finally {
    await owner.end();
  }
}

describe('the worker as a lease holder when Redis fails it', () => {
  it('catches up from the ledger after its subscriber connection was killed and the revocation missed, and closes the connection', async () => {
    const approved = await scenario.approve();
    const refresh = track(scenario.refresh(approved));
    const child = await scenario.discoveryChild();
    expect(child.pgid).toBe(child.pid);

    // Our own ear on the tenant's channel: proof the announcement went out while the holder was away.
    const ear = createRedisConnection({ url: redis.url, name: 'holder-test-ear', purpose: 'subscriber' });
    try {
      const announced = new Promise<unknown>((resolve) => {
        ear.on('message', (_channel: string, message: string) => {
          const event = JSON.parse(message) as { subject?: { approvalId?: string } };
          if (event.subject?.approvalId === approved.approvalId) resolve(event);
        });
      });
      await ear.subscribe(
        revocationChannel(scenario.namespace, { stream: 'tenant', tenantId: scenario.tenantId }),
      );

      const before = await clients();
      const holder = before.filter((c) => c.name === 'worker-revocations:subscriber');
      expect(holder).toHaveLength(1);
      // No new connection is accepted from here on, so the killed subscriber cannot come back until we say so.
      await admin.config('SET', 'maxclients', String(before.length - 1));
      await admin.client('KILL', 'ID', holder[0]?.id ?? '');

      await scenario.revoke(approved.approvalId);
      expect(await announced).toMatchObject({ kind: 'approval_revoked', tenantId: scenario.tenantId });
      // Announced, and the holder did not hear it: the lease is still held, discovery still under way.
      expect(refresh.ended()).toBe(false);
      expect(processGroupAlive(child.pgid)).toBe(true);

      await admin.config('SET', 'maxclients', '10000');
      await expect(refresh.outcome).resolves.toEqual({ outcome: 'dropped', reason: 'revoked' });
      expect(processGroupAlive(child.pgid)).toBe(false);
      // It came back as a new connection (the old id is gone).
      const after = (await clients()).filter((c) => c.name === 'worker-revocations:subscriber');
      expect(after).toHaveLength(1);
      expect(after[0]?.id).not.toBe(holder[0]?.id);
    } finally {
      await admin.config('SET', 'maxclients', '10000');
      await closeRedis(ear);
    }
  });

  it('loses nothing when Redis restarts empty: a revocation committed while it was down reaches the holder, and the relay publishes it', async () => {
    const approved = await scenario.approve();
    const refresh = track(scenario.refresh(approved));
    const child = await scenario.discoveryChild();

    await redis.shutdown();
    // The API answers: the change and its ledger event are one Postgres transaction; Redis is only the announcer.
    await scenario.revoke(approved.approvalId);
    const whileDown = await revocationRow(approved.approvalId);
    expect(whileDown.published_at).toBeNull();
    expect(refresh.ended()).toBe(false);

    await redis.restart();
    await expect(refresh.outcome).resolves.toEqual({ outcome: 'dropped', reason: 'revoked' });
    expect(processGroupAlive(child.pgid)).toBe(false);

    // The relay kept its place in the ledger: the row it could not publish is published once Redis is back.
    // (Its pass runs on a 1 s tick, announced by no event outside the API: read the row until it says so.)
    let row = await revocationRow(approved.approvalId);
    for (let attempt = 0; row.published_at === null && attempt < 200; attempt += 1) {
      await new Promise((done) => setTimeout(done, 50));
      row = await revocationRow(approved.approvalId);
    }
    expect(row.published_at).not.toBeNull();
    expect(row.seq).not.toBeNull();
  });

  it('drops a lease whose revocation committed after it was issued but before the holder first watched its tenant', async () => {
    // A holder of its own, watching nothing yet: the worker's first lease of a tenant.
    const config = scenario.worker.context.get<string, WorkerConfig>(WORKER_CONFIG);
    const held = new HeldLeases();
    const holder = new LeaseRevocationsHolder(
      config,
      silent,
      held,
      scenario.worker.context.get(RedisConnections),
    );
    const api = new LeaseApiClient({ apiUrl: scenario.apiUrl, token: config.WORKER_TOKEN ?? '' });
    try {
      const approved = await scenario.approve();
      // Where the ledger stands before the lease is asked for, as the processor takes it.
      const since = await holder.positionBeforeLease();
      const issued = await api.issue({
        workspaceId: scenario.workspaceId,
        serverName: 'silent',
        principalUserId: null,
      });
      if (!issued.ok) throw new Error(`lease refused: ${issued.code}`);
      const lease = held.hold({
        leaseId: issued.lease.id,
        tenantId: issued.lease.tenantId,
        workspaceId: issued.lease.workspaceId,
        serverName: issued.lease.serverName,
        approvalId: issued.lease.approvalId,
        principalUserId: issued.lease.principalUserId,
      });
      // Revoked in the window between the lease and the subscription: committed, announced to nobody yet.
      await scenario.revoke(approved.approvalId);
      expect(await holder.watch(scenario.tenantId, since)).toBe(true);
      // Watching from before the lease, the holder read the revocation from the ledger while positioning.
      expect(lease.dropped).toBe('revoked');
    } finally {
      await holder.onApplicationShutdown();
    }
  });

  it('reads the difference from the ledger when the tenant is already watched from a later position than the lease', async () => {
    const config = scenario.worker.context.get<string, WorkerConfig>(WORKER_CONFIG);
    const held = new HeldLeases();
    const holder = new LeaseRevocationsHolder(
      config,
      silent,
      held,
      scenario.worker.context.get(RedisConnections),
    );
    const api = new LeaseApiClient({ apiUrl: scenario.apiUrl, token: config.WORKER_TOKEN ?? '' });
    try {
      const approved = await scenario.approve();
      const since = await holder.positionBeforeLease();
      const issued = await api.issue({
        workspaceId: scenario.workspaceId,
        serverName: 'silent',
        principalUserId: null,
      });
      if (!issued.ok) throw new Error(`lease refused: ${issued.code}`);
      const lease = held.hold({
        leaseId: issued.lease.id,
        tenantId: issued.lease.tenantId,
        workspaceId: issued.lease.workspaceId,
        serverName: issued.lease.serverName,
        approvalId: issued.lease.approvalId,
        principalUserId: issued.lease.principalUserId,
      });
      await scenario.revoke(approved.approvalId);
      // Another job's watch started the tenant's subscriber after the revocation: it delivers only what follows.
      expect(await holder.watch(scenario.tenantId)).toBe(true);
      expect(lease.dropped).toBeNull();
      expect(await holder.watch(scenario.tenantId, since)).toBe(true);
      expect(lease.dropped).toBe('revoked');
    } finally {
      await holder.onApplicationShutdown();
    }
  });
});
