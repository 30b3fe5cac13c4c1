// A one-slot wake-up: `notify()` ends the current `wait()` early, or, when nobody is waiting yet, makes the
// next `wait()` return at once. So a notification arriving between "try failed" and "start waiting" is not lost.
export class Wakeup {
  private pending = false;
  private wakeCurrent: (() => void) | null = null;

  notify(): void {
    if (this.wakeCurrent) this.wakeCurrent();
    else this.pending = true;
  }

  // Resolves on notify(), after `ms`, or when `signal` aborts, whichever comes first.
  wait(ms: number, signal?: AbortSignal): Promise<void> {
    if (this.pending || signal?.aborted) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.wakeCurrent = null;
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      signal?.addEventListener('abort', done, { once: true });
      this.wakeCurrent = done;
    });
  }
}
