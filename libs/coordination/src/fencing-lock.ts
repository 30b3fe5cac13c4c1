import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ChannelListenerHandle, RedisChannelMultiplexer } from './channel-multiplexer';
import { assertCoordinationName, coordinationNames } from './coordination-names';
import { acquireLockScript } from './fencing-lock-scripts';
import { assertDuration, createHeldLock, type HeldLock } from './held-lock';
import { Wakeup } from './wakeup';

export interface FencingLockOptions {
  // A connection created with purpose 'command'.
  readonly connection: Redis;
  readonly namespace: string;
  // Lets acquireWithWait wake as soon as the holder releases. Without it, waiters poll with backoff (they
  // still wake when the holder's TTL runs out: a failed attempt reports the remaining PTTL).
  readonly releaseNotifications?: RedisChannelMultiplexer;
  readonly pollInitialDelayMs?: number;
  readonly pollMaxDelayMs?: number;
}

export interface AcquireLockOptions {
  readonly ttlMs: number;
  // The held lock re-extends itself to `ttlMs` every third of it until released, and aborts its `lost` signal
  // when an extension finds the lock gone or none was confirmed before the lease ran out.
  readonly autoExtend?: boolean;
}

export interface AcquireLockWithWaitOptions extends AcquireLockOptions {
  // How long to keep trying; 0 means one attempt.
  readonly waitMs: number;
  readonly signal?: AbortSignal;
}

export type { HeldLock } from './held-lock';

const DEFAULT_POLL_INITIAL_DELAY_MS = 25;
const DEFAULT_POLL_MAX_DELAY_MS = 1_000;

type AttemptResult =
  | { readonly acquired: true; readonly lock: HeldLock }
  | { readonly acquired: false; readonly pttlMs: number };

// A Redis lock (SET NX PX on a random owner value) that also hands out fencing tokens. A Redis lock alone is
// only advisory: a holder can pause past its TTL and keep going. The fencing token closes that hole at the
// store, which is why the OAuth refresh coordinator both takes this lock and writes with a version check.
export class FencingLock {
  private readonly connection: Redis;
  private readonly namespace: string;
  private readonly releaseNotifications: RedisChannelMultiplexer | undefined;
  private readonly pollInitialDelayMs: number;
  private readonly pollMaxDelayMs: number;

  constructor(options: FencingLockOptions) {
    assertCoordinationName('namespace', options.namespace);
    this.connection = options.connection;
    this.namespace = options.namespace;
    this.releaseNotifications = options.releaseNotifications;
    this.pollInitialDelayMs = options.pollInitialDelayMs ?? DEFAULT_POLL_INITIAL_DELAY_MS;
    this.pollMaxDelayMs = options.pollMaxDelayMs ?? DEFAULT_POLL_MAX_DELAY_MS;
  }

  // One attempt: the lock, or null when someone else holds it.
  async acquire(resource: string, options: AcquireLockOptions): Promise<HeldLock | null> {
    const attempt = await this.attempt(resource, options);
    return attempt.acquired ? attempt.lock : null;
  }

  // Retries until `waitMs` has passed: woken by the holder's release notification when there is a
  // multiplexer, otherwise after a backoff; never later than the holder's TTL. Null when still held at the
  // deadline or when `signal` aborts.
  async acquireWithWait(resource: string, options: AcquireLockWithWaitOptions): Promise<HeldLock | null> {
    assertDuration('waitMs', options.waitMs, 0);
    const deadline = Date.now() + options.waitMs;
    const wakeup = new Wakeup();
    // Listen before the first attempt, so a release between a failed attempt and the wait is not missed.
    const listener = await this.listenForRelease(resource, wakeup);
    try {
      let delayMs = this.pollInitialDelayMs;
      for (;;) {
        const attempt = await this.attempt(resource, options);
        if (attempt.acquired) return attempt.lock;
        const remainingMs = deadline - Date.now();
        if (remainingMs <= 0 || options.signal?.aborted) return null;
        // PTTL is -1 for a key without expiry and -2 when it vanished since the SET: retry soon in both cases.
        const untilExpiryMs = attempt.pttlMs >= 0 ? attempt.pttlMs + 1 : this.pollInitialDelayMs;
        await wakeup.wait(Math.min(remainingMs, untilExpiryMs, jitter(delayMs)), options.signal);
        if (options.signal?.aborted) return null;
        delayMs = Math.min(delayMs * 2, this.pollMaxDelayMs);
      }
    } finally {
      await listener?.close();
    }
  }

  private async attempt(resource: string, options: AcquireLockOptions): Promise<AttemptResult> {
    const { ttlMs } = options;
    assertCoordinationName('resource', resource);
    assertDuration('ttlMs', ttlMs, 1);
    const owner = randomBytes(18).toString('base64url');
    const lockKey = coordinationNames.lockKey(this.namespace, resource);
    const sentAt = performance.now();
    const reply = await acquireLockScript.run(
      this.connection,
      [lockKey, coordinationNames.fencingCounterKey(this.namespace, resource)],
      [owner, ttlMs],
    );
    const [won, value] = parseIntegerPair(reply);
    if (won !== 1) return { acquired: false, pttlMs: value };
    const lock = createHeldLock({
      connection: this.connection,
      resource,
      lockKey,
      releasedChannel: coordinationNames.lockReleasedChannel(this.namespace, resource),
      owner,
      fencingToken: BigInt(value),
      ttlMs,
      acquiredAt: sentAt,
      autoExtend: options.autoExtend ?? false,
    });
    return { acquired: true, lock };
  }

  private async listenForRelease(resource: string, wakeup: Wakeup): Promise<ChannelListenerHandle | null> {
    if (!this.releaseNotifications) return null;
    assertCoordinationName('resource', resource);
    return this.releaseNotifications.listen(coordinationNames.lockReleasedChannel(this.namespace, resource), {
      onMessage: () => wakeup.notify(),
      // Releases may have been missed while the subscriber was reconnecting: try again now.
      onResubscribed: () => wakeup.notify(),
    });
  }
}

// Between half and all of the delay, so waiters that failed together do not retry together.
function jitter(delayMs: number): number {
  return Math.ceil(delayMs / 2 + Math.random() * (delayMs / 2));
}

function parseIntegerPair(reply: unknown): [number, number] {
  if (Array.isArray(reply) && reply.length === 2) {
    const [first, second] = reply as unknown[];
    if (Number.isSafeInteger(first) && Number.isSafeInteger(second))
      return [first as number, second as number];
  }
  throw new Error('unexpected reply from the lock script');
}
