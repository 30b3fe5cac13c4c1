import type { HealthCheck } from './health-checks.js';

/** The slice of an ioredis connection a readiness check needs (structural: this lib does not import ioredis). */
export type PingableRedis = { readonly status: string; ping(): Promise<unknown> };

const LOST = new Set(['reconnecting', 'close', 'end']);

/**
 * Redis answers PING. A connection that was lost fails at once rather than queueing the PING behind
 * reconnect attempts; while the first connection is still being made, the PING waits for it (bounded by the
 * check's timeout).
 */
export function redisCheck(redis: PingableRedis): HealthCheck {
  return async () => {
    if (LOST.has(redis.status)) throw new Error(`redis connection is ${redis.status}`);
    await redis.ping();
  };
}

/** A peer's liveness endpoint answers 2xx (worker and gateway check the API's /healthz). */
export function httpCheck(url: string, fetchImpl: typeof fetch = fetch): HealthCheck {
  return async (signal) => {
    const response = await fetchImpl(url, {
      signal,
      redirect: 'error',
      headers: { accept: 'application/json' },
    });
    // Drain the body so the connection returns to the pool.
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`status ${response.status}`);
  };
}
