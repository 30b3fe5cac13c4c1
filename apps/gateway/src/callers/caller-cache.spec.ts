import type { RevocationEvent } from '@gatehouse/contracts';
import type { CallerCheck, GatewayCaller } from './caller.js';
import { CallerCache } from './caller-cache.js';

const TENANT = '1c7d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const WORKSPACE = '2d8e3f4a-5b6c-4d7e-9f8a-0b1c2d3e4f5a';
const caller: GatewayCaller = {
  tokenId: '5f0e8a51-1d0b-4c1e-9b55-0c8f6b1b7a01',
  tenantId: TENANT,
  kind: 'user',
  userId: '3e9f4a5b-6c7d-4e8f-8a9b-1c2d3e4f5a6b',
  workspaceId: WORKSPACE,
  expiresAt: null,
};

function event(kind: RevocationEvent['kind'], subject: RevocationEvent['subject']): RevocationEvent {
  return { seq: 1, tenantId: TENANT, kind, subject, occurredAt: '2026-12-01T12:00:00.000Z' };
}

/** An introspection that answers only when the test says: `answer` settles the one started `started` times. */
function held() {
  const settles: Array<(answer: CallerCheck) => void> = [];
  return {
    introspect: () => new Promise<CallerCheck>((resolve) => settles.push(resolve)),
    answer(index: number, check: CallerCheck = { ok: true, caller }) {
      settles[index]?.(check);
    },
    get started() {
      return settles.length;
    },
  };
}

function counting(answer: CallerCheck = { ok: true, caller }) {
  let calls = 0;
  return {
    introspect: async () => {
      calls += 1;
      return answer;
    },
    get calls() {
      return calls;
    },
  };
}

describe('CallerCache', () => {
  it('serves a live caller from memory within the TTL, per token and workspace', async () => {
    let now = 0;
    const cache = new CallerCache({ ttlMs: 1_000, now: () => now });
    const api = counting();
    await cache.check('ghu_token', WORKSPACE, api.introspect);
    await cache.check('ghu_token', WORKSPACE, api.introspect);
    expect(api.calls).toBe(1);
    await cache.check('ghu_token', '9d8e3f4a-5b6c-4d7e-9f8a-0b1c2d3e4f5a', api.introspect);
    expect(api.calls).toBe(2);
    now = 1_000;
    await cache.check('ghu_token', WORKSPACE, api.introspect);
    expect(api.calls).toBe(3);
  });

  it('never caches a refusal, and shares one introspection between concurrent misses', async () => {
    const cache = new CallerCache({ ttlMs: 60_000 });
    const refused = counting({ ok: false, reason: 'unauthenticated' });
    await cache.check('ghu_bad', WORKSPACE, refused.introspect);
    await cache.check('ghu_bad', WORKSPACE, refused.introspect);
    expect(refused.calls).toBe(2);
    const api = counting();
    await Promise.all([1, 2, 3].map(() => cache.check('ghu_token', WORKSPACE, api.introspect)));
    expect(api.calls).toBe(1);
  });

  it('refuses a cached caller whose token has expired since', async () => {
    const cache = new CallerCache({ ttlMs: 60_000 });
    const expiring = counting({
      ok: true,
      caller: { ...caller, expiresAt: new Date('2026-12-01T12:00:00Z') },
    });
    expect(
      await cache.check('ghu_t', WORKSPACE, expiring.introspect, new Date('2026-12-01T11:00:00Z')),
    ).toMatchObject({
      ok: true,
    });
    expect(
      await cache.check('ghu_t', WORKSPACE, expiring.introspect, new Date('2026-12-01T12:00:00Z')),
    ).toEqual({
      ok: false,
      reason: 'unauthenticated',
    });
  });

  it('evicts on the token’s revocation or its member’s change, not on other events', async () => {
    const cache = new CallerCache({ ttlMs: 60_000 });
    const api = counting();
    await cache.check('ghu_token', WORKSPACE, api.introspect);
    expect(cache.evict(event('approval_revoked', { workspaceId: WORKSPACE }))).toEqual([]);
    expect(
      cache.evict(event('token_revoked', { tokenIds: ['7f0e8a51-1d0b-4c1e-9b55-0c8f6b1b7a01'] })),
    ).toEqual([]);
    expect(cache.evict(event('token_revoked', { tokenIds: [caller.tokenId] }))).toEqual([caller.tokenId]);
    await cache.check('ghu_token', WORKSPACE, api.introspect);
    expect(cache.evict(event('member_changed', { userId: caller.userId as string }))).toEqual([
      caller.tokenId,
    ]);
    expect(cache.size).toBe(0);
  });

  it('past the TTL answers from memory at once while one introspection revalidates behind it (decision 0111)', async () => {
    let now = 0;
    const cache = new CallerCache({ ttlMs: 1_000, now: () => now });
    await cache.check('ghu_token', WORKSPACE, counting().introspect);
    now = 1_500;
    let settle: (answer: CallerCheck) => void = () => undefined;
    let started = 0;
    const hanging = () => {
      started += 1;
      return new Promise<CallerCheck>((resolve) => (settle = resolve));
    };
    expect(await cache.check('ghu_token', WORKSPACE, hanging)).toEqual({ ok: true, caller });
    expect(await cache.check('ghu_token', WORKSPACE, hanging)).toEqual({ ok: true, caller });
    expect(started).toBe(1);
    // The revalidation says the token is no longer good: the held caller goes, the next check asks again.
    settle({ ok: false, reason: 'unauthenticated' });
    await new Promise((done) => setImmediate(done));
    expect(cache.size).toBe(0);
    const refused = counting({ ok: false, reason: 'unauthenticated' });
    expect(await cache.check('ghu_token', WORKSPACE, refused.introspect)).toEqual({
      ok: false,
      reason: 'unauthenticated',
    });
  });

  it('past twice the TTL waits for the introspection', async () => {
    let now = 0;
    const cache = new CallerCache({ ttlMs: 1_000, now: () => now });
    await cache.check('ghu_token', WORKSPACE, counting().introspect);
    now = 2_000;
    const refused = counting({ ok: false, reason: 'unauthenticated' });
    expect(await cache.check('ghu_token', WORKSPACE, refused.introspect)).toEqual({
      ok: false,
      reason: 'unauthenticated',
    });
    expect(refused.calls).toBe(1);
  });

  it('an introspection started before the token’s revocation neither answers a request that arrives after it nor fills the cache', async () => {
    const cache = new CallerCache({ ttlMs: 60_000 });
    const api = held();
    const before = cache.check('ghu_token', WORKSPACE, api.introspect);
    cache.evict(event('token_revoked', { tokenIds: [caller.tokenId] }));
    // Arrives after the revocation: asks the API again, never shares the answer asked for before it.
    const after = cache.check('ghu_token', WORKSPACE, api.introspect);
    expect(api.started).toBe(2);
    // The older introspection answers late, from before the revocation: its own request (which came before the
    // revocation) gets it, but it is not held.
    api.answer(0);
    expect(await before).toEqual({ ok: true, caller });
    api.answer(1, { ok: false, reason: 'unauthenticated' });
    expect(await after).toEqual({ ok: false, reason: 'unauthenticated' });
    expect(cache.size).toBe(0);
    const refused = counting({ ok: false, reason: 'unauthenticated' });
    expect(await cache.check('ghu_token', WORKSPACE, refused.introspect)).toEqual({
      ok: false,
      reason: 'unauthenticated',
    });
    expect(refused.calls).toBe(1);
  });

  it('a revalidation started before the token’s revocation does not answer the miss that follows it', async () => {
    let now = 0;
    const cache = new CallerCache({ ttlMs: 1_000, now: () => now });
    await cache.check('ghu_token', WORKSPACE, counting().introspect);
    now = 1_500;
    const api = held();
    // Served from memory while one introspection revalidates behind it.
    expect(await cache.check('ghu_token', WORKSPACE, api.introspect)).toEqual({ ok: true, caller });
    expect(api.started).toBe(1);
    expect(cache.evict(event('token_revoked', { tokenIds: [caller.tokenId] }))).toEqual([caller.tokenId]);
    const after = cache.check('ghu_token', WORKSPACE, api.introspect);
    expect(api.started).toBe(2);
    api.answer(0);
    api.answer(1, { ok: false, reason: 'unauthenticated' });
    expect(await after).toEqual({ ok: false, reason: 'unauthenticated' });
    await new Promise((done) => setImmediate(done));
    expect(cache.size).toBe(0);
  });

  it('after a clear (revalidation of everything), an introspection started before it is neither shared nor held', async () => {
    const cache = new CallerCache({ ttlMs: 60_000 });
    const api = held();
    const before = cache.check('ghu_token', WORKSPACE, api.introspect);
    cache.clear();
    const after = cache.check('ghu_token', WORKSPACE, api.introspect);
    expect(api.started).toBe(2);
    api.answer(0);
    await before;
    expect(cache.size).toBe(0);
    // The introspection asked after the clear is the one held, and later checks share nothing older.
    api.answer(1);
    expect(await after).toEqual({ ok: true, caller });
    expect(cache.size).toBe(1);
    expect(await cache.check('ghu_token', WORKSPACE, api.introspect)).toEqual({ ok: true, caller });
    expect(api.started).toBe(2);
  });

  it('concurrent misses after an invalidation share the one introspection asked after it', async () => {
    const cache = new CallerCache({ ttlMs: 60_000 });
    const api = held();
    const before = cache.check('ghu_token', WORKSPACE, api.introspect);
    cache.evict(event('member_changed', { userId: caller.userId as string }));
    const afterOne = cache.check('ghu_token', WORKSPACE, api.introspect);
    const afterTwo = cache.check('ghu_token', WORKSPACE, api.introspect);
    expect(api.started).toBe(2);
    // The later introspection answers first; the older one, answering after it, must not take its place.
    api.answer(1);
    expect(await afterOne).toEqual({ ok: true, caller });
    expect(await afterTwo).toEqual({ ok: true, caller });
    api.answer(0);
    await before;
    expect(await cache.check('ghu_token', WORKSPACE, api.introspect)).toEqual({ ok: true, caller });
    expect(api.started).toBe(2);
  });

  it('fails closed while the revocation holder is not live: asks the API every time, serves and stores nothing', async () => {
    let live = true;
    const cache = new CallerCache({ ttlMs: 60_000, revocationsLive: () => live });
    const api = counting();
    await cache.check('ghu_token', WORKSPACE, api.introspect);
    expect(api.calls).toBe(1);
    live = false;
    // Held, fresh, yet not served: the API's answer of now is the one that counts (here, revoked).
    const revoked = counting({ ok: false, reason: 'unauthenticated' });
    expect(await cache.check('ghu_token', WORKSPACE, revoked.introspect)).toEqual({
      ok: false,
      reason: 'unauthenticated',
    });
    // Concurrent checks share nothing, and a live answer is not stored.
    await Promise.all([1, 2].map(() => cache.check('ghu_other', WORKSPACE, api.introspect)));
    expect(api.calls).toBe(3);
    live = true;
    await cache.check('ghu_other', WORKSPACE, api.introspect);
    expect(api.calls).toBe(4);
    // Caught up again: what it held (and no event evicted) is served again.
    await cache.check('ghu_token', WORKSPACE, api.introspect);
    expect(api.calls).toBe(4);
  });
});
