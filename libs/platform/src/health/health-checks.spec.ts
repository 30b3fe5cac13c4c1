import { HealthChecks } from './health-checks.js';

describe('HealthChecks', () => {
  afterEach(() => jest.useRealTimers());

  it('reports ok when every check resolves', async () => {
    const checks = new HealthChecks(
      { postgres: async () => 'pong', redis: async () => undefined },
      { timeoutMs: 1000 },
    );
    await expect(checks.run()).resolves.toEqual({
      status: 'ok',
      checks: { postgres: { status: 'up' }, redis: { status: 'up' } },
    });
  });

  it('reports each failing check by name without its error text', async () => {
    const onFailure = jest.fn();
    const checks = new HealthChecks(
      {
        postgres: async () => undefined,
        redis: async () => Promise.reject(new Error('ECONNREFUSED 127.0.0.1:1')),
      },
      { timeoutMs: 1000, onFailure },
    );
    const report = await checks.run();
    expect(report).toEqual({
      status: 'unavailable',
      checks: { postgres: { status: 'up' }, redis: { status: 'down', reason: 'failed' } },
    });
    expect(JSON.stringify(report)).not.toContain('ECONNREFUSED');
    expect(onFailure).toHaveBeenCalledWith('redis', 'failed', expect.any(Error));
  });

  it('reports a check that hangs as timed out and aborts its signal', async () => {
    jest.useFakeTimers();
    let aborted = false;
    const checks = new HealthChecks(
      {
        api: (signal) =>
          new Promise(() => {
            signal.addEventListener('abort', () => {
              aborted = true;
            });
          }),
      },
      { timeoutMs: 500 },
    );
    const pending = checks.run();
    await jest.advanceTimersByTimeAsync(500);
    await expect(pending).resolves.toEqual({
      status: 'unavailable',
      checks: { api: { status: 'down', reason: 'timeout' } },
    });
    expect(aborted).toBe(true);
  });
});
