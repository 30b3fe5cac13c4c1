/** A dependency check: resolves when the dependency answers, rejects (or times out) when it does not. */
export type HealthCheck = (signal: AbortSignal) => Promise<unknown>;

export type CheckResult = { status: 'up' } | { status: 'down'; reason: 'timeout' | 'failed' };

export type HealthReport = {
  status: 'ok' | 'unavailable';
  checks: Record<string, CheckResult>;
};

export type HealthChecksOptions = {
  /** Per check; a check that takes longer is reported down with reason `timeout`. */
  timeoutMs: number;
  /** Called for each failed check, so the app can log the error (never put in the report). */
  onFailure?: (name: string, reason: 'timeout' | 'failed', error: unknown) => void;
};

const TIMED_OUT = Symbol('timed out');

/**
 * Runs named readiness checks concurrently, each bounded by a timeout. The report names each check and says
 * up or down with a fixed reason; infrastructure error text stays in the logs.
 */
export class HealthChecks {
  private readonly entries: ReadonlyArray<readonly [string, HealthCheck]>;

  constructor(
    checks: Readonly<Record<string, HealthCheck>>,
    private readonly options: HealthChecksOptions,
  ) {
    this.entries = Object.entries(checks);
  }

  async run(): Promise<HealthReport> {
    const results = await Promise.all(
      this.entries.map(async ([name, check]) => [name, await this.runOne(name, check)] as const),
    );
    const checks = Object.fromEntries(results);
    const status = results.every(([, result]) => result.status === 'up') ? 'ok' : 'unavailable';
    return { status, checks };
  }

  private async runOne(name: string, check: HealthCheck): Promise<CheckResult> {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(() => resolve(TIMED_OUT), this.options.timeoutMs);
    });
    try {
      const outcome = await Promise.race([check(controller.signal), timeout]);
      if (outcome === TIMED_OUT) {
        controller.abort();
        this.options.onFailure?.(name, 'timeout', undefined);
        return { status: 'down', reason: 'timeout' };
      }
      return { status: 'up' };
    } catch (error) {
      this.options.onFailure?.(name, 'failed', error);
      return { status: 'down', reason: 'failed' };
    } finally {
      clearTimeout(timer);
    }
  }
}
