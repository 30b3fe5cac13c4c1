export type HealthWaitResult = { ok: true } | { ok: false; reason: 'exited' | 'timeout' };

export type WaitForHealthOptions = {
  url: string;
  /** Settles when the process behind `url` exits: waiting stops at once instead of running into the timeout. */
  exited: Promise<unknown>;
  timeoutMs: number;
  intervalMs?: number;
  fetchImpl?: typeof fetch;
};

/**
 * Polls `url` until it answers 2xx. A listening socket is not an event we can subscribe to from outside the
 * child, so this polls; it stops as soon as the child exits, so a crash never waits out the timeout.
 */
export async function waitForHealth(options: WaitForHealthOptions): Promise<HealthWaitResult> {
  const fetchImpl = options.fetchImpl ?? fetch;
  const intervalMs = options.intervalMs ?? 250;
  const deadline = Date.now() + options.timeoutMs;
  let exited = false;
  void options.exited.then(() => {
    exited = true;
  });
  while (!exited) {
    try {
      const response = await fetchImpl(options.url, { signal: AbortSignal.timeout(2_000) });
      await response.body?.cancel();
      if (response.ok) return { ok: true };
    } catch {
      // Not listening yet.
    }
    if (Date.now() >= deadline) return { ok: false, reason: 'timeout' };
    await Promise.race([new Promise((resolve) => setTimeout(resolve, intervalMs)), options.exited]);
  }
  return { ok: false, reason: 'exited' };
}
