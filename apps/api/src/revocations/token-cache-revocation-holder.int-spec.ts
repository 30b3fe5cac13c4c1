import { randomBytes } from 'node:crypto';
import type { RevocationEvent } from '@gatehouse/contracts';
import {
  closeRedis,
  createRedisConnection,
  RedisChannelMultiplexer,
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

// Decision 0033's cross-replica bound: a token revoked by ANOTHER process (a second Database here, as another
// replica or the operator CLI would be) leaves this process's cache once the ledger event arrives, although the
// entry's TTL is an hour.

let testDb: TestDatabase;
let replica: Database;
let other: Database;
let redis: Redis;
let subscriber: Redis;
let subscriptions: RedisChannelMultiplexer;
let holder: RevocationSubscriber;
const namespace = `gh-test-token-cache-${randomBytes(6).toString('hex')}`;
const handled: Array<{ match: (e: RevocationEvent) => boolean; resolve: () => void }> = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
  replica = createDatabase({ url: testDb.appUrl, poolMax: 2 });
  other = createDatabase({ url: testDb.appUrl, poolMax: 2 });
  redis = createRedisConnection({ url: testRedisUrl(), name: 'token-cache-test', purpose: 'command' });
  subscriber = createRedisConnection({
    url: testRedisUrl(),
    name: 'token-cache-test',
    purpose: 'subscriber',
  });
  subscriptions = new RedisChannelMultiplexer(subscriber);
  holder = new RevocationSubscriber({
    subscriptions,
    namespace,
    stream: { stream: 'platform' },
    readSince: (since, limit) => readRevocationsPage(replica, { stream: 'platform' }, since, limit),
    // As RevocationsLifecycle wires it, then tells the test the event was handled.
    onEvent: (event) => {
      evictTokensFor(event);
      for (const waiter of handled.splice(0)) if (waiter.match(event)) waiter.resolve();
    },
    revalidateAll: evictAllTokens,
  });
  await holder.start();
});

afterAll(async () => {
  await holder?.close();
  await subscriptions?.close();
  await Promise.all([closeRedis(subscriber), closeRedis(redis)]);
  await Promise.all([replica?.close(), other?.close()]);
  await testDb?.drop();
});

function lookupOf(tokenId: string): TokenLookup {
  return { id: tokenId, revokedAt: null, expiresAt: null } as unknown as TokenLookup;
}

it('drops a cached token once another process revokes it (ledger event), not after the TTL', async () => {
  const tenant = await createTestTenant(other);
  const tokenId = '11111111-2222-4333-8444-555555555555';
  const cache = new TokenLookupCache({ ttlMs: 3_600_000 });
  const secretHash = new Uint8Array(randomBytes(32));
  let loads = 0;
  const load = async () => {
    loads += 1;
    return lookupOf(tokenId);
  };
  await cache.lookup(secretHash, load);
  await cache.lookup(secretHash, load);
  expect(loads).toBe(1);

  const evicted = new Promise<void>((resolve) =>
    handled.push({ match: (e) => e.kind === 'token_revoked', resolve }),
  );
  await other.withTenant(tenant.id, (tx) =>
    appendRevocationEvent(tx, { kind: 'token_revoked', subject: { tokenIds: [tokenId] } }),
  );
  // The other process's relay (this process was not woken by that commit).
  await new RevocationRelay({ database: other, redis, namespace }).pass();
  await evicted;
  await cache.lookup(secretHash, load);
  expect(loads).toBe(2);
});
