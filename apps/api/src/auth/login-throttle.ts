import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

// Sign-in attempts counted in Redis (so every API replica sees the same counts) three ways: per account AND
// client IP (the tight limit: one address guessing one account), per account across all addresses (a looser
// limit against distributed guessing), and per client IP (one address guessing many accounts). A single
// attacker can therefore not lock an owner out: their address runs out long before the account-wide budget.
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
  /** One client address guessing one account. */
  readonly perAccountAndIp: ThrottleLimit;
  /** One account, from every address together (distributed guessing). */
  readonly perAccount: ThrottleLimit;
  /** One client address, over every account. */
  readonly perIp: ThrottleLimit;
}

export const DEFAULT_LOGIN_THROTTLE_LIMITS: LoginThrottleLimits = Object.freeze({
  perAccountAndIp: Object.freeze({ maxFailures: 5, windowMs: 15 * 60_000 }),
  perAccount: Object.freeze({ maxFailures: 50, windowMs: 15 * 60_000 }),
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

interface Counter {
  readonly key: string;
  readonly limit: ThrottleLimit;
}

export class LoginThrottle {
  constructor(
    private readonly redis: Redis,
    /** Namespace of every key (e.g. `gatehouse:`; a random one per test file). */
    private readonly keyPrefix: string,
    private readonly limits: LoginThrottleLimits = DEFAULT_LOGIN_THROTTLE_LIMITS,
  ) {}

  /**
   * Counts this attempt, then allows it only while every counter is within its limit. A refused attempt stays
   * counted but never extends a window (PEXPIRE NX), so waiting out Retry-After always works.
   */
  async attempt(attempt: LoginAttemptKey): Promise<ThrottleVerdict> {
    const counters = this.counters(attempt);
    let multi = this.redis.multi();
    for (const { key, limit } of counters) {
      multi = multi.incr(key).pexpire(key, limit.windowMs, 'NX').pttl(key);
    }
    const replies = await multi.exec();
    const values = (replies ?? []).map(([error, value]) => {
      if (error) throw error;
      return value;
    });
    const waitMs = Math.max(
      ...counters.map(({ limit }, index) => blockedFor(values[index * 3], values[index * 3 + 2], limit)),
    );
    return waitMs > 0
      ? { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) }
      : { allowed: true };
  }

  /**
   * The password was right: this address starts over on this account, and the account-wide and IP counters get
   * this attempt back. Neither of those is cleared: one attacker-owned account must not reset the budget of an
   * address guessing other accounts, and the owner signing in must not reset a distributed guess at theirs.
   */
  async succeeded(attempt: LoginAttemptKey): Promise<void> {
    const [pair, account, ip] = this.counters(attempt);
    await Promise.all([
      this.redis.del(pair.key),
      this.redis.eval(REFUND_SCRIPT, 1, account.key),
      this.redis.eval(REFUND_SCRIPT, 1, ip.key),
    ]);
  }

  private counters(attempt: LoginAttemptKey): [Counter, Counter, Counter] {
    const account = createHash('sha256').update(attempt.email, 'utf8').digest('hex');
    const pair = createHash('sha256').update(`${attempt.email}\u0000${attempt.ip}`, 'utf8').digest('hex');
    return [
      { key: `${this.keyPrefix}login-attempts:account-ip:${pair}`, limit: this.limits.perAccountAndIp },
      { key: `${this.keyPrefix}login-attempts:account:${account}`, limit: this.limits.perAccount },
      { key: `${this.keyPrefix}login-attempts:ip:${attempt.ip}`, limit: this.limits.perIp },
    ];
  }
}

function blockedFor(count: unknown, pttl: unknown, limit: ThrottleLimit): number {
  if (typeof count !== 'number' || count <= limit.maxFailures) return 0;
  // PEXPIRE NX right after INCR always leaves a TTL; should one be missing, block for a window, never forever.
  return typeof pttl === 'number' && pttl > 0 ? pttl : limit.windowMs;
}
