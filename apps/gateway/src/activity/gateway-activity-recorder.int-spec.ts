import { Writable } from 'node:stream';
import {
  GATEWAY_ACTIVITY_BUCKET_TTL_SECONDS,
  GATEWAY_ACTIVITY_SESSIONS_TTL_SECONDS,
  epochMinuteOf,
  gatewayMinuteKey,
  gatewaySessionsKey,
} from '@gatehouse/contracts';
import { RedisConnections } from '@gatehouse/coordination';
import { createLogger } from '@gatehouse/platform';
import {
  createTestRedisPrefix,
  startDedicatedRedis,
  testRedisUrl,
  type DedicatedRedis,
} from '@gatehouse/testing';
import { Redis } from 'ioredis';
import { GatewayActivityRecorder } from './gateway-activity-recorder.js';

// The recorder against real Redis: one pipeline of per-minute counters and per-replica session counts, expiring;
// a replica's field goes when its last session in the workspace closes, another replica's stays; an outage
// (a dedicated Redis shut down) never throws, is logged once, and the next flush after it writes again.

const WS = '11111111-2222-4333-8444-555555555555';
const OTHER_WS = '11111111-2222-4333-8444-666666666666';
const T0 = Date.parse('2026-12-01T12:00:30.000Z');

function captureLogger(): { logger: ReturnType<typeof createLogger>; lines: () => { msg: string }[] } {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  return {
    logger: createLogger({ name: 'activity-test', level: 'info', destination }),
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as { msg: string }),
  };
}

describe('GatewayActivityRecorder (real Redis)', () => {
  const redis = new Redis(testRedisUrl(), { lazyConnect: true, maxRetriesPerRequest: 1 });
  const prefix = createTestRedisPrefix();
  let now = T0;
  const sessions = new Map<string, number>();
  const recorders: GatewayActivityRecorder[] = [];
  // One factory per Redis (the shared one, the dedicated one an outage is staged on), as the gateway has one.
  const factories = new Map<string, RedisConnections>();
  function connectionsTo(url: string): RedisConnections {
    let factory = factories.get(url);
    if (factory === undefined)
      factories.set(url, (factory = new RedisConnections({ url, app: 'gateway-test' })));
    return factory;
  }

  function recorder(replicaId: string, redisUrl = testRedisUrl(), logger = captureLogger().logger) {
    const created = new GatewayActivityRecorder({
      connect: () => connectionsTo(redisUrl).open('command', 'activity-test'),
      keyPrefix: prefix,
      replicaId,
      logger,
      sessionCounts: () => sessions,
      // Flushed by the test: no interval tick in between.
      flushIntervalMs: 3_600_000,
      now: () => now,
    });
    created.start();
    recorders.push(created);
    return created;
  }

  beforeAll(async () => {
    await redis.connect();
  });
  afterEach(() => {
    sessions.clear();
    now = T0;
  });
  afterAll(async () => {
    await Promise.all(recorders.map((r) => r.close()));
    await Promise.all([...factories.values()].map((factory) => factory.close()));
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('flushes calls and refusals into per-minute hashes that expire, and session counts per replica', async () => {
    const a = recorder('replica-a');
    a.toolCall(WS, 'ok');
    a.toolCall(WS, 'ok');
    a.toolCall(WS, 'tool_error');
    a.refused(WS, 'rate_limited_token');
    // Not words the panel knows: never written.
    a.toolCall(WS, 'something_else');
    a.refused(WS, 'unauthenticated');
    now = T0 + 60_000;
    a.toolCall(WS, 'upstream_unavailable');
    a.toolCall(OTHER_WS, 'ok');
    sessions.set(WS, 3);
    await a.flush();

    const first = gatewayMinuteKey(prefix, WS, epochMinuteOf(T0));
    const second = gatewayMinuteKey(prefix, WS, epochMinuteOf(T0 + 60_000));
    expect(await redis.hgetall(first)).toEqual({
      'call:ok': '2',
      'call:tool_error': '1',
      'refusal:rate_limited_token': '1',
    });
    expect(await redis.hgetall(second)).toEqual({ 'call:upstream_unavailable': '1' });
    expect(await redis.hgetall(gatewayMinuteKey(prefix, OTHER_WS, epochMinuteOf(T0 + 60_000)))).toEqual({
      'call:ok': '1',
    });
    const ttl = await redis.ttl(first);
    expect(ttl).toBeGreaterThan(GATEWAY_ACTIVITY_BUCKET_TTL_SECONDS - 10);
    expect(ttl).toBeLessThanOrEqual(GATEWAY_ACTIVITY_BUCKET_TTL_SECONDS);
    expect(await redis.hgetall(gatewaySessionsKey(prefix, WS))).toEqual({ 'replica-a': `3@${T0 + 60_000}` });
    const sessionsTtl = await redis.ttl(gatewaySessionsKey(prefix, WS));
    expect(sessionsTtl).toBeGreaterThan(0);
    expect(sessionsTtl).toBeLessThanOrEqual(GATEWAY_ACTIVITY_SESSIONS_TTL_SECONDS);

    // A second flush adds only what was recorded since (the counters are increments, not totals).
    a.toolCall(WS, 'ok');
    await a.flush();
    expect(await redis.hget(second, 'call:ok')).toBe('1');
    expect(await redis.hget(first, 'call:ok')).toBe('2');
  });

  it("removes a replica's session field when its last session in the workspace closed, keeping another's", async () => {
    const b = recorder('replica-b');
    const c = recorder('replica-c');
    sessions.set(OTHER_WS, 2);
    await b.flush();
    await c.flush();
    expect(Object.keys(await redis.hgetall(gatewaySessionsKey(prefix, OTHER_WS))).sort()).toEqual([
      'replica-b',
      'replica-c',
    ]);
    sessions.clear();
    await b.flush();
    expect(Object.keys(await redis.hgetall(gatewaySessionsKey(prefix, OTHER_WS)))).toEqual(['replica-c']);
    // Closing writes the last counts: replica-c's sessions are gone too.
    await c.close();
    expect(await redis.hgetall(gatewaySessionsKey(prefix, OTHER_WS))).toEqual({});
  });

  describe('while Redis is away', () => {
    let dedicated: DedicatedRedis;
    beforeAll(async () => {
      dedicated = await startDedicatedRedis();
    });
    afterAll(async () => {
      await dedicated.stop();
    });

    it('never throws, logs the outage once, and writes again once Redis is back', async () => {
      const { logger, lines } = captureLogger();
      const d = recorder('replica-d', dedicated.url, logger);
      await dedicated.shutdown();
      const direct = new Redis(dedicated.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
      try {
        d.toolCall(WS, 'ok');
        sessions.set(WS, 1);
        await expect(d.flush()).resolves.toBeUndefined();
        d.toolCall(WS, 'ok');
        await expect(d.flush()).resolves.toBeUndefined();
        const warned = lines().filter((line) => line.msg.startsWith('gateway activity: Redis unavailable'));
        expect(warned).toHaveLength(1);

        await dedicated.restart();
        // Recorded after the outage: written by the first flush that reaches Redis.
        d.toolCall(WS, 'tool_error');
        let flushed = false;
        while (!flushed) {
          await d.flush();
          flushed = lines().some((line) => line.msg === 'gateway activity: flushing to Redis again');
          if (!flushed) d.toolCall(WS, 'tool_error');
        }
        await direct.connect();
        const bucket = await direct.hgetall(gatewayMinuteKey(prefix, WS, epochMinuteOf(T0)));
        // The calls of the outage were lost (the unflushed numbers), never replayed twice.
        expect(bucket['call:ok']).toBeUndefined();
        expect(Number(bucket['call:tool_error'])).toBeGreaterThanOrEqual(1);
        expect(await direct.hget(gatewaySessionsKey(prefix, WS), 'replica-d')).toBe(`1@${T0}`);
      } finally {
        direct.disconnect();
      }
    });
  });
});
