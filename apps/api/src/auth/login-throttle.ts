import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { throttleAddressKey } from './throttle-address';

// Sign-in attempts counted in Redis (so every API replica sees the same counts) three ways: per account AND
// client address (the tight limit: one address guessing one account), per account across all addresses (a
// looser limit against distributed guessing), and per client address (one address guessing many accounts).
// IPv6 clients are counted by their /64 (throttleAddressKey), so one attacker is one address, not 2^64.
// Each counter is a fixed window that opens at the first attempt (INCR, then PEXPIRE NX). The attempt is
// counted BEFORE the password is checked, atomically with reading the counts (one Lua script), so a burst of
// parallel guesses cannot slip past the limit between a check and a record; a successful sign-in then takes
// its attempt back, so only failures (and refused attempts) use up the budget. An attempt its address is
// already refused for never reaches the account-wide counter: one attacker's address runs out long before the
// account-wide budget, and its refused attempts cannot spend that budget either, so it cannot lock the owner
// out. The account key is a hash of the normalized email whether or not the account exists, so a 429 says
// nothing about existence; raw emails are never written to Redis.

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

// KEYS: the account+address, account and address counters; ARGV: their limits and windows in that order.
// Counts the attempt against the two counters of this address; if either is over its limit the attempt is
// refused right there, WITHOUT counting it against the account (else one address could use up the account's
// budget with attempts it was refused anyway). Otherwise it is counted against the account and refused if that
// is over. Returns how many ms to wait (the longest remaining window among the exceeded counters), 0 = allowed.
// PEXPIRE NX: a refused attempt never extends a window, so waiting out Retry-After always works; a key left
// without a TTL (it cannot happen, INCR and PEXPIRE run together here) would block for one window, not forever.
const ATTEMPT_SCRIPT = `
local function count(key, window)
  local n = redis.call('INCR', key)
  redis.call('PEXPIRE', key, window, 'NX')
  return n
end
local function remaining(key, window)
  local ttl = redis.call('PTTL', key)
  if ttl > 0 then return ttl end
  return tonumber(window)
end
local wait = 0
if count(KEYS[1], ARGV[2]) > tonumber(ARGV[1]) then wait = math.max(wait, remaining(KEYS[1], ARGV[2])) end
if count(KEYS[3], ARGV[6]) > tonumber(ARGV[5]) then wait = math.max(wait, remaining(KEYS[3], ARGV[6])) end
if wait > 0 then return wait end
if count(KEYS[2], ARGV[4]) > tonumber(ARGV[3]) then return remaining(KEYS[2], ARGV[4]) end
return 0
`;

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
   * Counts this attempt, then allows it only while every counter is within its limit (see ATTEMPT_SCRIPT: an
   * attempt refused for its address is not counted against the account).
   */
  async attempt(attempt: LoginAttemptKey): Promise<ThrottleVerdict> {
    const [pair, account, ip] = this.counters(attempt);
    const waitMs = await this.redis.eval(
      ATTEMPT_SCRIPT,
      3,
      pair.key,
      account.key,
      ip.key,
      ...[pair, account, ip].flatMap(({ limit }) => [limit.maxFailures, limit.windowMs]),
    );
    if (typeof waitMs !== 'number') throw new TypeError('login throttle script returned a non-number');
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
    const address = throttleAddressKey(attempt.ip);
    const account = createHash('sha256').update(attempt.email, 'utf8').digest('hex');
    const pair = createHash('sha256').update(`${attempt.email}\u0000${address}`, 'utf8').digest('hex');
    return [
      { key: `${this.keyPrefix}login-attempts:account-ip:${pair}`, limit: this.limits.perAccountAndIp },
      { key: `${this.keyPrefix}login-attempts:account:${account}`, limit: this.limits.perAccount },
      { key: `${this.keyPrefix}login-attempts:ip:${address}`, limit: this.limits.perIp },
    ];
  }
}
