import type { Redis } from 'ioredis';
import {
  confirmLockScript,
  extendLockScript,
  lengthenLockScript,
  releaseLockScript,
} from './fencing-lock-scripts';

export type HeldLockState = 'held' | 'released' | 'lost';

// Why a holder learned it no longer holds its lock: `taken` when Redis answered that the lock is not this
// owner's any more (expired, then maybe taken by someone else); `expired` when this holder's own clock passed
// the end of the last lease Redis confirmed, with no renewal confirmed since (Redis unreachable, a long pause).
export type LockLostReason = 'taken' | 'expired';

export class LockLostError extends Error {
  override readonly name = 'LockLostError';

  constructor(
    readonly resource: string,
    readonly reason: LockLostReason,
  ) {
    super(`lock lost (${reason}): ${resource}`);
  }
}

export interface HeldLock {
  readonly resource: string;
  // Strictly increasing per resource across all holders and processes. Pass it to the protected store, which
  // refuses tokens lower than the highest it has accepted (see checkFencingToken).
  readonly fencingToken: bigint;
  // Aborted (with a LockLostError as its reason) the moment this holder learns it lost the lock: an extension
  // or confirmation answered "not yours", or its own clock passed the end of the last confirmed lease. Never
  // aborted by release(). Pass it to work that must stop when the lock is gone.
  readonly lost: AbortSignal;
  state(): HeldLockState;
  // The time this holder can still count on, by its own monotonic clock, from the last lease Redis confirmed
  // (acquire, extend, confirm); 0 once released or lost. A lower bound: Redis may hold the key a little longer.
  remainingMs(): number;
  // Asks Redis whether this holder still holds the lock: the remaining lease in ms, or null (and the lock is
  // then marked lost). Call it right before an action that must not happen twice.
  confirm(): Promise<number | null>;
  // True when this holder still held the lock and deleted it; false when it had expired (and maybe been taken
  // by someone else, whose lock is left alone).
  release(): Promise<boolean>;
  // Sets the remaining time to `ttlMs` if this holder still holds the lock; false otherwise (then lost).
  // With autoExtend, a longer lease set here is kept until it runs down to the ttl the lock was taken with.
  extend(ttlMs: number): Promise<boolean>;
}

export interface HeldLockParts {
  readonly connection: Redis;
  readonly resource: string;
  readonly lockKey: string;
  readonly releasedChannel: string;
  readonly owner: string;
  readonly fencingToken: bigint;
  readonly ttlMs: number;
  // performance.now() when the acquiring call was sent: the lease is counted from there, never from the reply.
  readonly acquiredAt: number;
  // Re-extend to ttlMs every third of it until released or lost, never shortening a longer lease that
  // extend() asked for.
  readonly autoExtend: boolean;
}

const now = (): number => performance.now();

export function createHeldLock(parts: HeldLockParts): HeldLock {
  const { connection, resource, lockKey, releasedChannel, owner, fencingToken } = parts;
  const lostController = new AbortController();
  let state: HeldLockState = 'held';
  let validUntil = parts.acquiredAt + parts.ttlMs;
  let expiryTimer: NodeJS.Timeout | null = null;
  let extendTimer: NodeJS.Timeout | null = null;

  const stopTimers = (): void => {
    if (expiryTimer) clearTimeout(expiryTimer);
    if (extendTimer) clearTimeout(extendTimer);
    expiryTimer = null;
    extendTimer = null;
  };
  const markLost = (reason: LockLostReason): void => {
    if (state !== 'held') return;
    state = 'lost';
    stopTimers();
    lostController.abort(new LockLostError(resource, reason));
  };
  const armExpiry = (): void => {
    if (expiryTimer) clearTimeout(expiryTimer);
    expiryTimer = setTimeout(() => markLost('expired'), Math.max(0, validUntil - now()));
    expiryTimer.unref();
  };
  // A confirmed lease counts from when the confirming call was sent; a later reply never shortens it.
  const renewed = (sentAt: number, leaseMs: number): void => {
    if (state !== 'held') return;
    validUntil = Math.max(validUntil, sentAt + leaseMs);
    armExpiry();
  };

  const renew = async (ttlMs: number, lengthenOnly: boolean): Promise<boolean> => {
    assertDuration('ttlMs', ttlMs, 1);
    if (state !== 'held') return false;
    const sentAt = now();
    const script = lengthenOnly ? lengthenLockScript : extendLockScript;
    const reply = await script.run(connection, [lockKey], [owner, ttlMs]);
    if (reply !== 1) {
      markLost('taken');
      return false;
    }
    renewed(sentAt, ttlMs);
    return state === 'held';
  };
  const extend = (ttlMs: number): Promise<boolean> => renew(ttlMs, false);

  const scheduleExtension = (): void => {
    if (!parts.autoExtend || state !== 'held') return;
    extendTimer = setTimeout(
      () => {
        // A failed call (Redis unreachable) is retried on the next tick; the expiry timer marks the lock lost
        // if no renewal is confirmed before the lease runs out.
        renew(parts.ttlMs, true)
          .catch(() => undefined)
          .finally(scheduleExtension);
      },
      Math.max(1, Math.floor(parts.ttlMs / 3)),
    );
    extendTimer.unref();
  };

  armExpiry();
  scheduleExtension();

  return {
    resource,
    fencingToken,
    lost: lostController.signal,
    state: () => state,
    remainingMs: () => (state === 'held' ? Math.max(0, validUntil - now()) : 0),
    confirm: async () => {
      if (state !== 'held') return null;
      const sentAt = now();
      const reply = await confirmLockScript.run(connection, [lockKey], [owner]);
      if (typeof reply !== 'number' || reply < 0) {
        markLost('taken');
        return null;
      }
      renewed(sentAt, reply);
      return state === 'held' ? reply : null;
    },
    extend,
    release: async () => {
      const wasHeld = state === 'held';
      stopTimers();
      if (wasHeld) state = 'released';
      const reply = await releaseLockScript.run(
        connection,
        [lockKey],
        [owner, releasedChannel, String(fencingToken)],
      );
      return reply === 1;
    },
  };
}

export function assertDuration(name: string, value: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min)
    throw new TypeError(`${name} must be an integer >= ${min}`);
}
