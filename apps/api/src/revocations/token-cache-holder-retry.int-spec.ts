import { randomBytes } from 'node:crypto';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import {
  closeRedis,
  createRedisConnection,
  RedisChannelMultiplexer,
  RetryingRevocationHolder,
  RevocationSubscriber,
} from '@gatehouse/coordination';
import { appendRevocationEvent, createDatabase, type Database, type TokenLookup } from '@gatehouse/db';
import {
  createTestDatabase,
  createTestTenant,
  testRedisUrl,
  TEST_DATABASE_TIMEOUT_MS,
  type TestDatabase,
} from '@gatehouse/testing';
import type { Redis } from 'ioredis';
import { TokenLookupCache } from '../auth/token-lookup-cache';
import { RevocationRelay } from './revocation-relay';
import { readRevocationsPage } from './revocations-page-reader';
import { evictAllTokens, evictTokensFor } from './token-cache-revocation-holder';

jest.setTimeout(TEST_DATABASE_TIMEOUT_MS);

// The API's token-cache holder when its first ledger read at boot fails: Postgres unreachable for that process
// (a TCP relay of the test's own in front of the real Postgres, refusing every connection while "down"). The
// holder must keep trying, with backoff, and once the ledger answers it must evict on a revoke like any holder.

/** A loopback relay to Postgres that drops every connection while down; no client library is involved. */
async function startPostgresRelay(target: { host: string; port: number }) {
  let up = false;
  let refused = 0;
  const refusedWaiters: Array<() => void> = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    if (!up) {
      refused += 1;
      for (const waiter of refusedWaiters.splice(0)) waiter();
      client.destroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    /** Resolves once the relay has refused `count` connections in all. */
    refusedAtLeast: async (count: number) => {
      while (refused < count) await new Promise<void>((resolve) => refusedWaiters.push(resolve));
    },
    bringUp: () => {
      up = true;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let testDb: TestDatabase;
let other: Database;
let throughRelay: Database;
let redis: Redis;
let subscriber: Redis;
let subscriptions: RedisChannelMultiplexer;
let relay: Awaited<ReturnType<typeof startPostgresRelay>>;
let holder: RetryingRevocationHolder | undefined;
const namespace = `gh-test-token-cache-retry-${randomBytes(6).toString('hex')}`;

beforeAll(async () => {
  testDb = await createTestDatabase();
  other = createDatabase({ url: testDb.appUrl, poolMax: 2 });
  const appUrl = new URL(testDb.appUrl);
  relay = await startPostgresRelay({ host: appUrl.hostname, port: Number(appUrl.port || 5432) });
  appUrl.hostname = '127.0.0.1';
  appUrl.port = String(relay.port);
  throughRelay = createDatabase({ url: appUrl.toString(), poolMax: 2 });
  redis = createRedisConnection({ url: testRedisUrl(), name: 'token-cache-retry', purpose: 'command' });
  subscriber = createRedisConnection({
    url: testRedisUrl(),
    name: 'token-cache-retry',
    purpose: 'subscriber',
  });
  subscriptions = new RedisChannelMultiplexer(subscriber);
});

afterAll(async () => {
  await holder?.close();
  await subscriptions?.close();
  await Promise.all([closeRedis(subscriber), closeRedis(redis)]);
  await Promise.all([throughRelay?.close(), other?.close()]);
  await relay?.close();
  await testDb?.drop();
});

it('keeps trying when the first ledger read fails at boot, then evicts a revoked token', async () => {
  const tenant = await createTestTenant(other);
  const tokenId = '21111111-2222-4333-8444-555555555555';
  const cache = new TokenLookupCache({ ttlMs: 3_600_000 });
  const secretHash = new Uint8Array(randomBytes(32));
  let loads = 0;
  const load = async () => {
    loads += 1;
    return { id: tokenId, revokedAt: null, expiresAt: null } as unknown as TokenLookup;
  };
  const evicted: Array<() => void> = [];
  const attempts: number[] = [];

  holder = new RetryingRevocationHolder({
    create: () =>
      new RevocationSubscriber({
        subscriptions,
        namespace,
        stream: { stream: 'platform' },
        readSince: (since, limit) => readRevocationsPage(throughRelay, { stream: 'platform' }, since, limit),
        onEvent: (event) => {
          evictTokensFor(event);
          if (event.kind === 'token_revoked') for (const done of evicted.splice(0)) done();
        },
        revalidateAll: evictAllTokens,
      }),
    revalidateAll: evictAllTokens,
    initialDelayMs: 20,
    maxDelayMs: 200,
    onAttemptFailed: (attempt) => attempts.push(attempt),
  });
  holder.start();

  // Its boot read, and at least two retries, reached nothing.
  await relay.refusedAtLeast(3);
  await cache.lookup(secretHash, load);
  await cache.lookup(secretHash, load);
  expect(loads).toBe(1);
  relay.bringUp();
  await holder.started();
  // Every failed attempt was reported, numbered in order (the boot read is attempt 1).
  expect(attempts.length).toBeGreaterThanOrEqual(3);
  expect(attempts).toEqual(attempts.map((_, index) => index + 1));

  // Started late, it cannot know what it missed meanwhile: the cache was dropped once on starting.
  await cache.lookup(secretHash, load);
  expect(loads).toBe(2);

  const handled = new Promise<void>((resolve) => evicted.push(resolve));
  await other.withTenant(tenant.id, (tx) =>
    appendRevocationEvent(tx, { kind: 'token_revoked', subject: { tokenIds: [tokenId] } }),
  );
  await new RevocationRelay({ database: other, redis, namespace }).pass();
  await handled;
  await cache.lookup(secretHash, load);
  expect(loads).toBe(3);
});

it('stops retrying once closed, before any attempt succeeded', async () => {
  const failures: number[] = [];
  let twoFailed: () => void = () => undefined;
  const twoFailures = new Promise<void>((resolve) => (twoFailed = resolve));
  const closing = new RetryingRevocationHolder({
    create: () =>
      new RevocationSubscriber({
        subscriptions,
        namespace,
        stream: { stream: 'platform' },
        readSince: () => Promise.reject(new Error('ledger unreachable')),
        onEvent: () => undefined,
        revalidateAll: () => undefined,
      }),
    revalidateAll: () => undefined,
    initialDelayMs: 10,
    maxDelayMs: 10,
    onAttemptFailed: (attempt) => {
      failures.push(attempt);
      if (attempt === 2) twoFailed();
    },
  });
  closing.start();
  await twoFailures;
  await closing.close();
  await expect(closing.started()).rejects.toThrow('closed');
});
