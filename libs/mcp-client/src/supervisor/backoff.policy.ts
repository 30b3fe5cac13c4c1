/** Bounded exponential backoff with jitter, for transient failures only. */
export interface BackoffPolicy {
  /** Delay before the first retry, before jitter. */
  readonly baseMs: number;
  /** No delay is longer than this. */
  readonly maxMs: number;
  /** Connection attempts in all (the first one included) before the failure surfaces. */
  readonly maxAttempts: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 500, maxMs: 30_000, maxAttempts: 6 };

/**
 * The wait before retry number `retry` (1-based): half of the capped exponential step, plus up to as much again
 * at random ("equal jitter"), so a fleet that failed together does not retry together, and no wait is zero.
 */
export function backoffDelayMs(policy: BackoffPolicy, retry: number, random: () => number): number {
  const step = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, retry - 1));
  const jitter = Math.min(1, Math.max(0, random()));
  return Math.round(step / 2 + (step / 2) * jitter);
}
