import { createLogger } from '../logger/create-logger.js';
import { installGracefulShutdown } from './graceful-shutdown.js';

// A signal nobody else in the test process listens to; emitting it calls the listeners without a real signal.
const SIGNAL: NodeJS.Signals = 'SIGUSR2';
const logger = createLogger({ name: 'shutdown-test', level: 'silent' });

describe('installGracefulShutdown', () => {
  afterEach(() => {
    process.removeAllListeners(SIGNAL);
    jest.useRealTimers();
  });

  it('runs the shutdown once and exits 0 when it completes', async () => {
    const exit = jest.fn();
    let finish = (): void => undefined;
    const shutdown = jest.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const run = installGracefulShutdown({ logger, shutdown, graceMs: 10_000, signals: [SIGNAL], exit });
    process.emit(SIGNAL, SIGNAL);
    const again = run('test');
    expect(shutdown).toHaveBeenCalledTimes(1);
    expect(exit).not.toHaveBeenCalled();
    finish();
    await again;
    expect(exit).toHaveBeenCalledWith(0);
  });

  it('exits 1 at once on a second signal', () => {
    const exit = jest.fn();
    installGracefulShutdown({
      logger,
      shutdown: () => new Promise(() => undefined),
      graceMs: 10_000,
      signals: [SIGNAL],
      exit,
    });
    process.emit(SIGNAL, SIGNAL);
    process.emit(SIGNAL, SIGNAL);
    expect(exit).toHaveBeenCalledWith(1);
  });

  it('exits 1 when the grace period expires', async () => {
    jest.useFakeTimers();
    const exit = jest.fn();
    installGracefulShutdown({
      logger,
      shutdown: () => new Promise(() => undefined),
      graceMs: 500,
      signals: [SIGNAL],
      exit,
    });
    process.emit(SIGNAL, SIGNAL);
    await jest.advanceTimersByTimeAsync(499);
    expect(exit).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(exit).toHaveBeenCalledWith(1);
  });

  it('exits 1 when the shutdown fails', async () => {
    const exit = jest.fn();
    const run = installGracefulShutdown({
      logger,
      shutdown: () => Promise.reject(new Error('pool close failed')),
      graceMs: 10_000,
      signals: [SIGNAL],
      exit,
    });
    await run('test');
    expect(exit).toHaveBeenCalledWith(1);
  });
});
