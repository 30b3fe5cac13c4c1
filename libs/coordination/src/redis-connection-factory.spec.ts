import { buildRedisOptions, createRedisConnection, redisRetryDelayMs } from './redis-connection-factory';

describe('buildRedisOptions', () => {
  it('names the connection after the process and purpose, and connects eagerly', () => {
    const options = buildRedisOptions({ name: 'gatehouse-api', purpose: 'command' });
    expect(options.connectionName).toBe('gatehouse-api:command');
    expect(options.lazyConnect).toBe(false);
    expect(options.keyPrefix).toBeUndefined();
  });

  it('fails commands after a few retries, but lets subscribers and BullMQ wait for Redis', () => {
    expect(buildRedisOptions({ name: 'a', purpose: 'command' }).maxRetriesPerRequest).toBe(3);
    expect(buildRedisOptions({ name: 'a', purpose: 'subscriber' }).maxRetriesPerRequest).toBeNull();
    expect(buildRedisOptions({ name: 'a', purpose: 'bullmq' }).maxRetriesPerRequest).toBeNull();
  });

  it('passes a key prefix through, except to BullMQ, which refuses one', () => {
    expect(buildRedisOptions({ name: 'a', purpose: 'command', keyPrefix: 'gh:' }).keyPrefix).toBe('gh:');
    expect(() => buildRedisOptions({ name: 'a', purpose: 'bullmq', keyPrefix: 'gh:' })).toThrow(TypeError);
  });

  it.each(['', 'has space', 'line\nbreak', 'x'.repeat(101)])('refuses the connection name %j', (name) => {
    expect(() => buildRedisOptions({ name, purpose: 'command' })).toThrow(TypeError);
  });

  it('reconnects and resends on READONLY (failover), not on other errors', () => {
    const { reconnectOnError } = buildRedisOptions({ name: 'a', purpose: 'command' });
    expect(reconnectOnError?.(new Error("READONLY You can't write against a read only replica."))).toBe(2);
    expect(reconnectOnError?.(new Error('WRONGTYPE Operation against a key'))).toBe(false);
  });

  it('never stops retrying the connection', () => {
    const { retryStrategy } = buildRedisOptions({ name: 'a', purpose: 'subscriber' });
    for (const attempt of [1, 5, 50, 10_000]) expect(retryStrategy?.(attempt)).toEqual(expect.any(Number));
  });
});

describe('redisRetryDelayMs', () => {
  it('backs off exponentially from 50 ms, capped at 2 s plus jitter', () => {
    const noJitter = (): number => 0;
    expect([1, 2, 3, 4, 5, 6, 7].map((attempt) => redisRetryDelayMs(attempt, noJitter))).toEqual([
      50, 100, 200, 400, 800, 1600, 2000,
    ]);
    expect(redisRetryDelayMs(1_000_000, noJitter)).toBe(2000);
    expect(redisRetryDelayMs(7, () => 0.999)).toBe(2099);
  });
});

describe('createRedisConnection', () => {
  it.each(['not a url', 'http://user:s3cret@redis.internal:6379', 'redis//:s3cret@host'])(
    'refuses %j without repeating it',
    (url) => {
      let thrown: unknown;
      try {
        createRedisConnection({ url, name: 'a', purpose: 'command' });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(TypeError);
      expect(JSON.stringify(thrown, Object.getOwnPropertyNames(thrown))).not.toContain('s3cret');
      expect(String((thrown as Error).message)).not.toContain('redis.internal');
    },
  );
});
