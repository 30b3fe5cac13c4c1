import { createTestRedisPrefix, testRedisUrl } from '@gatehouse/testing';
import { coordinationNames } from './coordination-names';
import { FencingLock, type HeldLock } from './fencing-lock';
import { LockLostError } from './held-lock';
import { checkFencingToken } from './fencing-token';
import { lastCommandOf, pollUntil, RedisTestHarness } from './test-support/redis-test.harness';

const harness = new RedisTestHarness(testRedisUrl(), createTestRedisPrefix().replace(/:$/, ''));
const { namespace } = harness;
const redis = harness.connection();
const lock = new FencingLock({ connection: redis, namespace });
let resourceCounter = 0;
const freshResource = (): string => `resource-${(resourceCounter += 1)}`;
const lockKey = (resource: string): string => coordinationNames.lockKey(namespace, resource);

afterAll(() => harness.cleanup());

describe('FencingLock', () => {
  it('lets exactly one of many concurrent acquirers win, over separate connections', async () => {
    const resource = freshResource();
    const contenders = Array.from(
      { length: 6 },
      () => new FencingLock({ connection: harness.connection(), namespace }),
    );
    const attempts = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        contenders[i % contenders.length]!.acquire(resource, { ttlMs: 30_000 }),
      ),
    );
    const winners = attempts.filter((attempt): attempt is HeldLock => attempt !== null);
    expect(winners).toHaveLength(1);
    expect(await winners[0]!.release()).toBe(true);
  });

  it('serializes a read-modify-write critical section across waiting contenders', async () => {
    const resource = freshResource();
    const counterKey = `${namespace}:critical-counter`;
    const tokensInOrder: bigint[] = [];
    const workers = Array.from({ length: 8 }, async () => {
      const contender = new FencingLock({
        connection: harness.connection(),
        namespace,
        releaseNotifications: harness.multiplexer(),
      });
      const held = await contender.acquireWithWait(resource, { ttlMs: 30_000, waitMs: 30_000 });
      if (!held) throw new Error('did not get the lock');
      tokensInOrder.push(held.fencingToken);
      // Deliberately not atomic: two holders at once would lose an increment.
      const current = Number((await redis.get(counterKey)) ?? '0');
      await redis.ping();
      await redis.set(counterKey, String(current + 1));
      await held.release();
    });
    await Promise.all(workers);
    expect(await redis.get(counterKey)).toBe('8');
    expect(tokensInOrder).toHaveLength(8);
    for (let i = 1; i < tokensInOrder.length; i += 1)
      expect(tokensInOrder[i]!).toBeGreaterThan(tokensInOrder[i - 1]!);
  });

  it('hands out strictly increasing fencing tokens per resource', async () => {
    const resource = freshResource();
    const tokens: bigint[] = [];
    for (let i = 0; i < 20; i += 1) {
      const held = await lock.acquire(resource, { ttlMs: 30_000 });
      expect(held).not.toBeNull();
      tokens.push(held!.fencingToken);
      await held!.release();
    }
    expect(tokens.map(String)).toEqual(Array.from({ length: 20 }, (_, i) => String(i + 1)));
    expect(typeof tokens[0]).toBe('bigint');
  });

  it('keeps a separate token sequence per resource', async () => {
    const first = await lock.acquire(freshResource(), { ttlMs: 30_000 });
    const second = await lock.acquire(freshResource(), { ttlMs: 30_000 });
    expect(first?.fencingToken).toBe(1n);
    expect(second?.fencingToken).toBe(1n);
  });

  it('never lets a holder whose lock expired release or extend the next holder’s lock', async () => {
    const resource = freshResource();
    const stale = await lock.acquire(resource, { ttlMs: 30 });
    expect(stale).not.toBeNull();
    await pollUntil(
      () => redis.exists(lockKey(resource)),
      (exists) => exists === 0,
    );

    const current = await lock.acquire(resource, { ttlMs: 30_000 });
    expect(current).not.toBeNull();
    const currentValue = await redis.get(lockKey(resource));

    expect(await stale!.release()).toBe(false);
    expect(await stale!.extend(60_000)).toBe(false);
    expect(await redis.get(lockKey(resource))).toBe(currentValue);
    expect(await redis.pttl(lockKey(resource))).toBeLessThanOrEqual(30_000);

    // The store the lock protects refuses the stale holder's writes by its lower token.
    expect(current!.fencingToken).toBeGreaterThan(stale!.fencingToken);
    expect(checkFencingToken(current!.fencingToken, stale!.fencingToken)).toEqual({
      ok: false,
      reason: 'stale_fencing_token',
    });

    expect(await current!.release()).toBe(true);
  });

  it('does not hand out a lock that is held, until it is released', async () => {
    const resource = freshResource();
    const held = await lock.acquire(resource, { ttlMs: 30_000 });
    expect(await lock.acquire(resource, { ttlMs: 30_000 })).toBeNull();
    expect(await held!.release()).toBe(true);
    expect(await held!.release()).toBe(false);
    const next = await lock.acquire(resource, { ttlMs: 30_000 });
    expect(next).not.toBeNull();
    await next!.release();
  });

  it('extends the lock of the current holder only', async () => {
    const resource = freshResource();
    const held = await lock.acquire(resource, { ttlMs: 1_000 });
    expect(await held!.extend(120_000)).toBe(true);
    expect(await redis.pttl(lockKey(resource))).toBeGreaterThan(60_000);
    await held!.release();
    expect(await held!.extend(120_000)).toBe(false);
    expect(await redis.exists(lockKey(resource))).toBe(0);
  });

  it('expires a lock that is not extended (forced with PEXPIRE)', async () => {
    const resource = freshResource();
    const held = await lock.acquire(resource, { ttlMs: 60_000 });
    await redis.pexpire(lockKey(resource), 1);
    await pollUntil(
      () => redis.exists(lockKey(resource)),
      (exists) => exists === 0,
    );
    expect(await held!.extend(60_000)).toBe(false);
    const next = await lock.acquire(resource, { ttlMs: 60_000 });
    expect(next!.fencingToken).toBe(held!.fencingToken + 1n);
    await next!.release();
  });

  it('wakes a waiter on the release notification, not by polling', async () => {
    const resource = freshResource();
    const holder = await lock.acquire(resource, { ttlMs: 120_000 });
    const waiterConnection = harness.connection();
    // Polling alone would not retry before the test times out: only the release notification can wake it.
    const waiter = new FencingLock({
      connection: waiterConnection,
      namespace,
      releaseNotifications: harness.multiplexer(),
      pollInitialDelayMs: 600_000,
      pollMaxDelayMs: 600_000,
    });
    const waiting = waiter.acquireWithWait(resource, { ttlMs: 30_000, waitMs: 600_000 });
    // Release only once Redis has run the waiter's first attempt (and refused it: the lock is held).
    await pollUntil(
      () => lastCommandOf(redis, waiterConnection),
      (command) => command === 'evalsha' || command === 'eval',
    );
    expect(await holder!.release()).toBe(true);
    const acquired = await waiting;
    expect(acquired?.fencingToken).toBe(holder!.fencingToken + 1n);
    await acquired!.release();
    // The waiter stopped listening once it had the lock.
    const channel = coordinationNames.lockReleasedChannel(namespace, resource);
    expect(await redis.pubsub('NUMSUB', channel)).toEqual([channel, 0]);
  }, 20_000);

  it('lets a polling waiter take the lock once the holder’s TTL runs out', async () => {
    const resource = freshResource();
    const holder = await lock.acquire(resource, { ttlMs: 200 });
    const acquired = await lock.acquireWithWait(resource, { ttlMs: 30_000, waitMs: 30_000 });
    expect(acquired?.fencingToken).toBe(holder!.fencingToken + 1n);
    expect(await holder!.release()).toBe(false);
    await acquired!.release();
  });

  it('gives up after waitMs while the lock stays held, and on abort', async () => {
    const resource = freshResource();
    const holder = await lock.acquire(resource, { ttlMs: 120_000 });
    expect(await lock.acquireWithWait(resource, { ttlMs: 30_000, waitMs: 0 })).toBeNull();
    expect(await lock.acquireWithWait(resource, { ttlMs: 30_000, waitMs: 100 })).toBeNull();
    const controller = new AbortController();
    const aborted = lock.acquireWithWait(resource, {
      ttlMs: 30_000,
      waitMs: 600_000,
      signal: controller.signal,
    });
    controller.abort();
    expect(await aborted).toBeNull();
    expect(await redis.get(lockKey(resource))).not.toBeNull();
    await holder!.release();
  });

  it('refuses malformed resources and durations as bugs', async () => {
    await expect(lock.acquire('', { ttlMs: 1_000 })).rejects.toThrow(TypeError);
    await expect(lock.acquire('has{brace}', { ttlMs: 1_000 })).rejects.toThrow(TypeError);
    await expect(lock.acquire('has space', { ttlMs: 1_000 })).rejects.toThrow(TypeError);
    await expect(lock.acquire(freshResource(), { ttlMs: 0 })).rejects.toThrow(TypeError);
    await expect(lock.acquire(freshResource(), { ttlMs: 1.5 })).rejects.toThrow(TypeError);
    expect(() => new FencingLock({ connection: redis, namespace: 'bad namespace' })).toThrow(TypeError);
  });
});

describe('FencingLock: holding on and knowing when it is gone', () => {
  const lostReason = (held: HeldLock): unknown => held.lost.reason as unknown;

  it('extends itself while held, so it outlives its ttl, and stops extending once released', async () => {
    const resource = freshResource();
    const held = await lock.acquire(resource, { ttlMs: 150, autoExtend: true });
    const contender = new FencingLock({ connection: harness.connection(), namespace });
    // Waiting past several ttls (the waiter's own deadline) cannot take a lock that keeps extending itself.
    expect(await contender.acquireWithWait(resource, { ttlMs: 30_000, waitMs: 600 })).toBeNull();
    expect(held!.state()).toBe('held');
    expect(held!.lost.aborted).toBe(false);
    expect(await held!.release()).toBe(true);
    expect(held!.state()).toBe('released');
    const next = await contender.acquire(resource, { ttlMs: 30_000 });
    expect(next!.fencingToken).toBe(held!.fencingToken + 1n);
    // A released lock never reports itself lost, and does not extend the next holder's lock.
    expect(held!.lost.aborted).toBe(false);
    expect(await held!.extend(60_000)).toBe(false);
    await next!.release();
  });

  it('tells the holder when an extension finds the lock taken by someone else', async () => {
    const resource = freshResource();
    const held = await lock.acquire(resource, { ttlMs: 300, autoExtend: true });
    const lostEvent = new Promise<void>((resolve) =>
      held!.lost.addEventListener('abort', () => resolve(), { once: true }),
    );
    // Someone else's lock under the same key (as if this one had expired and been taken).
    await redis.set(lockKey(resource), 'someone-else', 'PX', 30_000);
    await lostEvent;
    expect(held!.state()).toBe('lost');
    expect(lostReason(held!)).toBeInstanceOf(LockLostError);
    expect((lostReason(held!) as LockLostError).reason).toBe('taken');
    expect(held!.remainingMs()).toBe(0);
    expect(await held!.confirm()).toBeNull();
    expect(await redis.get(lockKey(resource))).toBe('someone-else');
  });

  it('confirms it still holds the lock with the remaining lease, and marks it lost when not', async () => {
    const resource = freshResource();
    const held = await lock.acquire(resource, { ttlMs: 60_000 });
    const remaining = await held!.confirm();
    expect(remaining).toBeGreaterThan(50_000);
    expect(remaining).toBeLessThanOrEqual(60_000);
    expect(held!.remainingMs()).toBeGreaterThan(0);
    expect(held!.remainingMs()).toBeLessThanOrEqual(60_000);
    await redis.del(lockKey(resource));
    expect(await held!.confirm()).toBeNull();
    expect(held!.state()).toBe('lost');
    expect(held!.lost.aborted).toBe(true);
  });

  it('marks itself lost by its own clock when no renewal was confirmed before the lease ran out', async () => {
    const resource = freshResource();
    // Not extending itself: nobody renews it, so the local deadline passes with the lease.
    const held = await lock.acquire(resource, { ttlMs: 100 });
    await new Promise<void>((resolve) =>
      held!.lost.addEventListener('abort', () => resolve(), { once: true }),
    );
    expect((lostReason(held!) as LockLostError).reason).toBe('expired');
    expect(held!.state()).toBe('lost');
    expect(await held!.extend(60_000)).toBe(false);
  });

  it('keeps the lease counted from when the acquire was sent (remainingMs never exceeds the ttl)', async () => {
    const held = await lock.acquire(freshResource(), { ttlMs: 5_000 });
    expect(held!.remainingMs()).toBeLessThanOrEqual(5_000);
    expect(await held!.extend(20_000)).toBe(true);
    expect(held!.remainingMs()).toBeGreaterThan(5_000);
    expect(held!.remainingMs()).toBeLessThanOrEqual(20_000);
    await held!.release();
    expect(held!.remainingMs()).toBe(0);
  });
});

describe('FencingLock: keep-alive next to a longer lease', () => {
  it('does not shorten a longer lease the holder asked for with extend()', async () => {
    const resource = freshResource();
    const held = await lock.acquire(resource, { ttlMs: 90, autoExtend: true });
    expect(await held!.extend(60_000)).toBe(true);
    // Several keep-alive ticks (every 30 ms) later, the long lease is still there.
    const contender = new FencingLock({ connection: harness.connection(), namespace });
    expect(await contender.acquireWithWait(resource, { ttlMs: 1_000, waitMs: 300 })).toBeNull();
    expect(await redis.pttl(lockKey(resource))).toBeGreaterThan(50_000);
    expect(held!.remainingMs()).toBeGreaterThan(50_000);
    await held!.release();
  });
});
