// Fixed-window request counters per key (a caller token, a workspace), in this replica's memory: a replica
// enforces its own share, so N replicas admit up to N times a limit (README). One window per minute; the answer
// beyond the limit says when the window turns (Retry-After, whole seconds, at least 1).

export type RateDecision = { readonly ok: true } | { readonly ok: false; readonly retryAfterSeconds: number };

interface Window {
  startedAt: number;
  count: number;
}

export interface RateLimiterOptions {
  readonly limit: number;
  readonly windowMs?: number;
  /** Monotonic milliseconds. */
  readonly now?: () => number;
  /** Keys kept at most; the oldest window goes first (a key it forgets starts a fresh window). */
  readonly maxKeys?: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly windowMs: number;
  private readonly now: () => number;
  private readonly maxKeys: number;

  constructor(private readonly options: RateLimiterOptions) {
    this.windowMs = options.windowMs ?? 60_000;
    this.now = options.now ?? (() => performance.now());
    this.maxKeys = options.maxKeys ?? 100_000;
  }

  take(key: string): RateDecision {
    const now = this.now();
    let window = this.windows.get(key);
    if (window === undefined || now - window.startedAt >= this.windowMs) {
      if (window === undefined && this.windows.size >= this.maxKeys) {
        const oldest = this.windows.keys().next();
        if (!oldest.done) this.windows.delete(oldest.value);
      }
      window = { startedAt: now, count: 0 };
      this.windows.delete(key);
      this.windows.set(key, window);
    }
    if (window.count >= this.options.limit) {
      const retryAfterSeconds = Math.max(1, Math.ceil((window.startedAt + this.windowMs - now) / 1000));
      return { ok: false, retryAfterSeconds };
    }
    window.count += 1;
    return { ok: true };
  }
}
