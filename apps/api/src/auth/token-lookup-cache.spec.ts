import type { TokenLookup } from '@gatehouse/db';
import { TokenLookupCache, evictCachedTokens } from './token-lookup-cache';

function lookup(overrides: Partial<TokenLookup> = {}): TokenLookup {
  return {
    id: 't1',
    tenantId: 'tenant',
    userId: 'user',
    createdById: 'user',
    kind: 'user',
    name: 'n',
    scopes: [],
    workspaceIds: [],
    pool: null,
    prefix: 'ghu_abcdef',
    createdAt: new Date(0),
    lastUsedAt: null,
    expiresAt: null,
    revokedAt: null,
    tenantSlug: 'acme',
    role: 'owner',
    userDisabledAt: null,
    ...overrides,
  };
}

function counting(answer: () => TokenLookup | null) {
  const calls = { count: 0 };
  return {
    calls,
    load: async () => {
      calls.count += 1;
      return answer();
    },
  };
}

const HASH = new Uint8Array([1, 2, 3]);

describe('TokenLookupCache', () => {
  it('serves an entry until its TTL has passed, then asks again', async () => {
    let now = 0;
    const cache = new TokenLookupCache({ ttlMs: 5_000, now: () => now });
    const source = counting(() => lookup());
    await cache.lookup(HASH, source.load);
    now = 4_999;
    await cache.lookup(HASH, source.load);
    expect(source.calls.count).toBe(1);
    now = 5_000;
    await cache.lookup(HASH, source.load);
    expect(source.calls.count).toBe(2);
  });

  it('never caches unknown or revoked tokens', async () => {
    const cache = new TokenLookupCache({ ttlMs: 60_000 });
    const unknown = counting(() => null);
    const revoked = counting(() => lookup({ revokedAt: new Date() }));
    for (let i = 0; i < 3; i += 1) {
      await cache.lookup(HASH, unknown.load);
      await cache.lookup(new Uint8Array([9]), revoked.load);
    }
    expect([unknown.calls.count, revoked.calls.count, cache.size]).toEqual([3, 3, 0]);
  });

  it('drops every entry on an eviction, and never stores an answer read before one', async () => {
    const cache = new TokenLookupCache({ ttlMs: 60_000 });
    const source = counting(() => lookup());
    await cache.lookup(HASH, source.load);
    evictCachedTokens({ tokenIds: ['t1'] });
    await cache.lookup(HASH, source.load);
    expect(source.calls.count).toBe(2);

    // A lookup in flight while a revocation commits: its (older) answer is returned but not kept.
    const other = new Uint8Array([7]);
    const racing = counting(() => lookup({ id: 't2' }));
    await cache.lookup(other, async () => {
      const answer = await racing.load();
      evictCachedTokens({ tokenIds: ['t2'] });
      return answer;
    });
    await cache.lookup(other, racing.load);
    expect(racing.calls.count).toBe(2);
  });

  it('holds at most maxEntries, dropping the oldest', async () => {
    const cache = new TokenLookupCache({ ttlMs: 60_000, maxEntries: 3 });
    for (let i = 0; i < 10; i += 1) await cache.lookup(new Uint8Array([i]), async () => lookup());
    expect(cache.size).toBe(3);
  });

  it('asks the database every time with a TTL of 0', async () => {
    const cache = new TokenLookupCache({ ttlMs: 0 });
    const source = counting(() => lookup());
    await cache.lookup(HASH, source.load);
    await cache.lookup(HASH, source.load);
    expect([source.calls.count, cache.size]).toEqual([2, 0]);
  });
});
