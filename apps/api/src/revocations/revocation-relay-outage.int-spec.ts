import { once } from 'node:events';
import { closeRedis, createRedisConnection, revocationChannel } from '@gatehouse/coordination';
import {
  appendRevocationEvent,
  createDatabase,
  listUnpublishedRevocationEvents,
  type Database,
} from '@gatehouse/db';
import {
  createTestDatabase,
  createTestTenant,
  startDedicatedRedis,
  TEST_DATABASE_TIMEOUT_MS,
  type DedicatedRedis,
  type TestDatabase,
  type TestTenant,
} from '@gatehouse/testing';
import type { Redis } from 'ioredis';
import { RevocationRelay } from './revocation-relay';

jest.setTimeout(TEST_DATABASE_TIMEOUT_MS);

// The relay when Redis is down at commit time (decision 0073), on a redis-server of this file's own: the ledger is
// the relay's place, so a pass that cannot publish marks nothing, and the rows go out, in order, once Redis is back
// (restarted empty: pub/sub needs nothing of what it held).

const namespace = 'gh-test-relay-outage';
let testDb: TestDatabase;
let db: Database;
let redis: DedicatedRedis;
let connection: Redis;
let tenant: TestTenant;

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 2 });
  tenant = await createTestTenant(db);
  redis = await startDedicatedRedis();
  connection = createRedisConnection({ url: redis.url, name: 'relay-outage-test', purpose: 'command' });
});

afterAll(async () => {
  if (connection) await closeRedis(connection);
  await redis?.stop();
  await db?.close();
  await testDb?.drop();
});

async function revoke(serverName: string): Promise<void> {
  await db.withTenant(tenant.id, (tx) =>
    appendRevocationEvent(tx, { kind: 'approval_revoked', subject: { serverName } }),
  );
}

async function unpublished(): Promise<string[]> {
  const rows = await db.lookup((query) => listUnpublishedRevocationEvents(query, 100));
  return rows.map((row) => (row.subject as { serverName?: string }).serverName ?? '');
}

/** A live listener of the tenant's channel: the names it heard, in order, and a wait for the n-th. */
async function listen(): Promise<{
  heard: string[];
  until(count: number): Promise<void>;
  close(): Promise<void>;
}> {
  const ear = createRedisConnection({ url: redis.url, name: 'relay-outage-ear', purpose: 'subscriber' });
  const heard: string[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  ear.on('message', (_channel: string, message: string) => {
    heard.push((JSON.parse(message) as { subject: { serverName?: string } }).subject.serverName ?? '');
    for (const waiter of waiters.filter((w) => heard.length >= w.count)) waiter.resolve();
  });
  await ear.subscribe(revocationChannel(namespace, { stream: 'tenant', tenantId: tenant.id }));
  return {
    heard,
    until: (count) =>
      heard.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve })),
    close: () => closeRedis(ear),
  };
}

async function ready(redisConnection: Redis): Promise<void> {
  if (redisConnection.status !== 'ready') await once(redisConnection, 'ready');
}

describe('the relay when Redis is down at commit time', () => {
  it('fails its pass and marks nothing; once Redis is back, the next pass publishes the same rows in order', async () => {
    const relay = new RevocationRelay({ database: db, redis: connection, namespace });
    await relay.pass();

    await redis.shutdown();
    await revoke('while-down-1');
    await revoke('while-down-2');
    await expect(relay.pass()).rejects.toThrow();
    expect(await unpublished()).toEqual(['while-down-1', 'while-down-2']);

    await redis.restart();
    await ready(connection);
    const ear = await listen();
    try {
      expect(await relay.pass()).toBe(2);
      await ear.until(2);
      expect(ear.heard).toEqual(['while-down-1', 'while-down-2']);
      expect(await unpublished()).toEqual([]);
    } finally {
      await ear.close();
    }
  });

  it('running, woken by a commit it cannot publish, publishes it on a later tick once Redis is back', async () => {
    let passFailed: () => void = () => undefined;
    const failed = new Promise<void>((resolve) => (passFailed = resolve));
    const logger = {
      info: () => undefined,
      error: () => undefined,
      warn: (_bindings: Record<string, unknown>, message: string) => {
        if (message === 'revocation relay pass failed') passFailed();
      },
    };
    const relay = new RevocationRelay({ database: db, redis: connection, namespace, tickMs: 200, logger });
    await relay.pass();
    relay.start();
    try {
      await redis.shutdown();
      await revoke('woken-while-down');
      // The pass the commit woke (or a tick's) gave up on Redis: the row stays where it was in the ledger.
      await failed;
      expect(await unpublished()).toEqual(['woken-while-down']);
      await redis.restart();
      // Its tick is not announced outside the relay: read the ledger until the row is marked published.
      let left = await unpublished();
      for (let attempt = 0; left.length > 0 && attempt < 200; attempt += 1) {
        await new Promise((done) => setTimeout(done, 50));
        left = await unpublished();
      }
      expect(left).toEqual([]);
    } finally {
      await relay.stop();
    }
  });
});
