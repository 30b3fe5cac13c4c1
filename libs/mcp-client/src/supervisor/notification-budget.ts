// How many notifications one upstream connection may have handled, over time (decision 0130): a token bucket,
// `burst` deep, refilled at `perSecond`. A server's notifications are handled one by one as they are read (parsed,
// dispatched, possibly relayed to a caller); a server that writes 20,000 of them during one call made the gateway
// pay for each. Past the budget a notification is dropped before anything reads further into it, and counted.

export interface NotificationBudgetOptions {
  /** Notifications handled back to back before the rate applies. */
  readonly burst: number;
  /** Refill rate once the burst is spent. */
  readonly perSecond: number;
  readonly now?: () => number;
}

export const DEFAULT_NOTIFICATION_BUDGET: NotificationBudgetOptions = { burst: 1_000, perSecond: 100 };

export class NotificationBudget {
  private tokens: number;
  private refilledAt: number;
  private readonly now: () => number;

  constructor(private readonly options: NotificationBudgetOptions = DEFAULT_NOTIFICATION_BUDGET) {
    this.now = options.now ?? (() => Date.now());
    this.tokens = options.burst;
    this.refilledAt = this.now();
  }

  /** Whether one more notification may be handled now (and spends it). */
  take(): boolean {
    const now = this.now();
    const elapsed = Math.max(0, now - this.refilledAt);
    this.refilledAt = now;
    this.tokens = Math.min(this.options.burst, this.tokens + (elapsed * this.options.perSecond) / 1_000);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
