import type { Logger } from 'pino';

export type GracefulShutdownOptions = {
  logger: Logger;
  /** Stops accepting work, drains, closes pools and connections. */
  shutdown: () => Promise<void>;
  /** After this, the process exits with code 1 even if `shutdown` has not finished. */
  graceMs: number;
  signals?: readonly NodeJS.Signals[];
  exit?: (code: number) => void;
};

/**
 * Installs SIGINT/SIGTERM handlers for an app's main. The first signal starts an orderly shutdown bounded by
 * `graceMs`; a second signal (a second Ctrl-C) exits at once. Returns a function that runs the same
 * shutdown without a signal.
 */
export function installGracefulShutdown(options: GracefulShutdownOptions): (reason: string) => Promise<void> {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const signals = options.signals ?? ['SIGINT', 'SIGTERM'];
  let running: Promise<void> | undefined;

  const run = (reason: string): Promise<void> => {
    if (running) return running;
    options.logger.info({ reason, graceMs: options.graceMs }, 'shutting down');
    const timer = setTimeout(() => {
      options.logger.error({ graceMs: options.graceMs }, 'shutdown grace period expired; exiting');
      exit(1);
    }, options.graceMs);
    running = options.shutdown().then(
      () => {
        clearTimeout(timer);
        options.logger.info('shutdown complete');
        exit(0);
      },
      (error: unknown) => {
        clearTimeout(timer);
        options.logger.error({ err: error }, 'shutdown failed');
        exit(1);
      },
    );
    return running;
  };

  for (const signal of signals) {
    process.on(signal, () => {
      if (running) {
        options.logger.warn({ signal }, 'second signal; exiting now');
        exit(1);
        return;
      }
      void run(signal);
    });
  }
  return run;
}
