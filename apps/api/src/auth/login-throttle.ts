import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

// Sign-in attempts counted per account and per client IP in Redis, so every API replica sees the same counts.
// Each counter is a fixed window that opens at the first attempt (INCR, then PEXPIRE NX in one MULTI). The
// attempt is counted BEFORE the password is checked, atomically with reading the count, so a burst of
// parallel guesses cannot slip past the limit between a check and a record; a successful sign-in then takes
// its attempt back, so only failures (and refused attempts) use up the budget. The account key is a hash of
// the normalized email whether or not the account exists, so a 429 says nothing about existence; raw emails
// are never written to Redis.

export interface ThrottleLimit {
  readonly maxFailures: number;
  readonly windowMs: number;
}

export interface LoginThrottleLimits {
  readonly perAccount: ThrottleLimit;
  readonly perIp: ThrottleLimit;
}

export const DEFAULT_LOGIN_THROTTLE_LIMITS: LoginThrottleLimits = Object.freeze({
  perAccount: Object.freeze({ maxFailures: 5, windowMs: 15 * 60_000 }),
  perIp: Object.freeze({ maxFailures: 20, windowMs: 15 * 60_000 }),
});

export type ThrottleVerdict =
  { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number };

export interface LoginAttemptKey {
  /** Normalized (lower-case) email. */
  readonly email: string;
  readonly ip: string;
}

// Takes one attempt back without ever creating the key (a DECR on an expired key would leave -1 forever).
const REFUND_SCRIPT = `if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('DECR', KEYS[1]) end return 0`;

export class LoginThrottle {
  constructor(
    private readonly redis: Redis,
    /** Namespace of every key (e.g. `gatehouse:`; a random one per test file). */
    private readonly keyPrefix: string,
    private readonly limits: LoginThrottleLimits = DEFAULT_LOGIN_THROTTLE_LIMITS,
  ) {}

  /**
   * Counts this attempt, then allows it only while both counters are within their limits. A refused attempt
   * stays counted but never extends the window (PEXPIRE NX), so waiting out Retry-After always works.
   */
  async attempt(attempt: LoginAttemptKey): Promise<ThrottleVerdict> {
    const [accountKey, ipKey] = this.keys(attempt);
    const replies = await this.redis
      .multi()
      .incr(accountKey)
      .pexpire(accountKey, this.limits.perAccount.windowMs, 'NX')
      .pttl(accountKey)
      .incr(ipKey)
      .pexpire(ipKey, this.limits.perIp.windowMs, 'NX')
      .pttl(ipKey)
      .exec();
    const values = (replies ?? []).map(([error, value]) => {
      if (error) throw error;
      return value;
    });
    const waitMs = Math.max(
      blockedFor(values[0], values[2], this.limits.perAccount),
      blockedFor(values[3], values[5], this.limits.perIp),
    );
    return waitMs > 0
      ? { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) }
      : { allowed: true };
  }

  /**
   * The password was right: the account starts over (its owner is back) and the IP gets its attempt back. The
   * IP counter is not cleared: one attacker-owned account must not reset the budget of an address that is
   * guessing other accounts.
   */
  async succeeded(attempt: LoginAttemptKey): Promise<void> {
    const [accountKey, ipKey] = this.keys(attempt);
    await Promise.all([this.redis.del(accountKey), this.redis.eval(REFUND_SCRIPT, 1, ipKey)]);
  }

  private keys(attempt: LoginAttemptKey): [string, string] {
    const account = createHash('sha256').update(attempt.email, 'utf8').digest('hex');
    return [
      `${this.keyPrefix}login-attempts:account:${account}`,
      `${this.keyPrefix}login-attempts:ip:${attempt.ip}`,
    ];
  }
}

function blockedFor(count: unknown, pttl: unknown, limit: ThrottleLimit): number {
  if (typeof count !== 'number' || count <= limit.maxFailures) return 0;
  // PEXPIRE NX right after INCR always leaves a TTL; should one be missing, block for a window, never forever.
  return typeof pttl === 'number' && pttl > 0 ? pttl : limit.windowMs;
}
