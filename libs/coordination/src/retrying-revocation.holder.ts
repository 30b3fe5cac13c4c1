import type { CoordinationLogger } from './coordination-logger';
import type { RevocationSubscriber } from './revocation-subscriber';

// One retrying start for every revocation holder (decisions 0053 and 0129): the API's token cache, the gateway's
// callers, catalogs and leases, the worker's leases of a tenant. A holder that gave up after a failed start (the
// API, Postgres or Redis not there yet, as when a process starts before its peers) would leave the process on its
// caches' TTLs for the rest of its life; this one keeps trying, and tells whether it is live meanwhile so readiness
// and the caches can say so.

/** What the retrying holder starts: a RevocationSubscriber, or anything shaped like one. */
export type RetriedRevocationSubscriber = Pick<
  RevocationSubscriber,
  'start' | 'close' | 'live' | 'onLiveChange' | 'requestCatchUp' | 'idle'
>;

export interface RetryingRevocationHolderOptions {
  /** A fresh subscriber per attempt: one whose start() failed has closed itself and cannot start again. */
  readonly create: () => RetriedRevocationSubscriber;
  /**
   * Drop everything held: called when an attempt succeeds after a failed one, since a holder that positions at
   * the head when it finally starts cannot know what was revoked while it could not read the ledger.
   */
  readonly revalidateAll: () => Promise<void> | void;
  /** First retry delay (default 500 ms); doubled after each failure up to maxDelayMs (default 30 s). */
  readonly initialDelayMs?: number;
  readonly maxDelayMs?: number;
  /** Called after each failed attempt with its number (1 is the first): tests and metrics. */
  readonly onAttemptFailed?: (attempt: number, error: unknown) => void;
  /** Names the holder in its log lines ("token cache", "gateway", "worker"). */
  readonly name?: string;
  readonly logger?: Pick<CoordinationLogger, 'warn' | 'info'>;
}

const DEFAULT_INITIAL_DELAY_MS = 500;
const DEFAULT_MAX_DELAY_MS = 30_000;

/**
 * Starts a revocation holder and keeps starting it, with capped exponential backoff and jitter, until one attempt
 * has its position in the ledger. `live` is true from then on while the subscriber can vouch that every event so
 * far reached it (its stream up and caught up); never before the first start, nor after close.
 */
export class RetryingRevocationHolder {
  private holder: RetriedRevocationSubscriber | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private hasStarted = false;
  private failures = 0;
  private readonly initialDelayMs: number;
  private readonly maxDelayMs: number;
  private resolveStarted: () => void = () => undefined;
  private rejectStarted: (error: Error) => void = () => undefined;
  private readonly startedPromise: Promise<void>;
  private attempting = false;
  // The attempt under way, if any: null while started, closed, or waiting for the next retry.
  private inFlight: Promise<void> | null = null;
  private readonly liveWaiters = new Set<() => void>();

  constructor(private readonly options: RetryingRevocationHolderOptions) {
    this.initialDelayMs = options.initialDelayMs ?? DEFAULT_INITIAL_DELAY_MS;
    this.maxDelayMs = Math.max(this.initialDelayMs, options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS);
    this.startedPromise = new Promise<void>((resolve, reject) => {
      this.resolveStarted = resolve;
      this.rejectStarted = reject;
    });
    // Nobody may be waiting (the lifecycle does not await it): a close before starting is no unhandled rejection.
    this.startedPromise.catch(() => undefined);
  }

  /** Begins the first attempt; never throws, never waits. */
  start(): void {
    if (this.attempting || this.closed) return;
    this.attempting = true;
    this.runAttempt();
  }

  /**
   * Resolves once no attempt is under way: at once when started or waiting to retry, else when the current attempt
   * has started the holder or failed. A holder that must decide now whether to use something the revocations vouch
   * for (the worker's next lease) waits for this, then reads `live`.
   */
  async settled(): Promise<void> {
    await this.inFlight?.catch(() => undefined);
  }

  /** Resolves once an attempt has started the holder; rejects if it was closed before. */
  started(): Promise<void> {
    return this.startedPromise;
  }

  /** Started, and its subscriber vouches that every event so far reached it: caches may be served. */
  get live(): boolean {
    return !this.closed && this.hasStarted && this.holder !== null && this.holder.live;
  }

  /** Resolves the next time the holder is live (at once when it is); never rejects, pending after close. */
  whenLive(): Promise<void> {
    if (this.live) return Promise.resolve();
    return new Promise((resolve) => this.liveWaiters.add(resolve));
  }

  /** Reads the ledger now and resolves once every event so far is handled (tests; a holder with a doubt). */
  async catchUp(): Promise<void> {
    const holder = this.hasStarted ? this.holder : null;
    if (holder === null) return;
    holder.requestCatchUp();
    await holder.idle();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.rejectStarted(new Error('revocation holder closed before it started'));
    // The holder started, or the one still starting: its close() ends a start() in flight too.
    const holder = this.holder;
    this.holder = null;
    await holder?.close();
  }

  private runAttempt(): void {
    const attempt = this.attempt().finally(() => {
      if (this.inFlight === attempt) this.inFlight = null;
    });
    this.inFlight = attempt;
  }

  private async attempt(): Promise<void> {
    const holder = this.options.create();
    this.holder = holder;
    holder.onLiveChange(() => this.wakeLiveWaiters());
    try {
      await holder.start();
    } catch (error) {
      if (this.holder === holder) this.holder = null;
      this.failures += 1;
      this.options.onAttemptFailed?.(this.failures, error);
      if (this.closed) return;
      const delayMs = this.delayAfter(this.failures);
      this.options.logger?.warn(
        {
          holder: this.options.name,
          err: error instanceof Error ? error.message : 'non-error thrown',
          attempt: this.failures,
          delayMs,
        },
        'revocation holder did not start: retrying (not ready, caches not served meanwhile)',
      );
      this.timer = setTimeout(() => {
        this.timer = null;
        if (!this.closed) this.runAttempt();
      }, delayMs);
      this.timer.unref();
      return;
    }
    if (this.closed) {
      await holder.close();
      return;
    }
    if (this.failures > 0) {
      await this.options.revalidateAll();
      this.options.logger?.info(
        { holder: this.options.name, attempts: this.failures + 1 },
        'revocation holder started after retrying',
      );
    }
    this.hasStarted = true;
    this.resolveStarted();
    this.wakeLiveWaiters();
  }

  private wakeLiveWaiters(): void {
    if (!this.live) return;
    const waiters = [...this.liveWaiters];
    this.liveWaiters.clear();
    for (const wake of waiters) wake();
  }

  /** Capped doubling with equal jitter: replicas that failed together do not retry in step. */
  private delayAfter(failures: number): number {
    const ceiling = Math.min(this.maxDelayMs, this.initialDelayMs * 2 ** Math.min(failures - 1, 20));
    return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
  }
}
