import { Wakeup } from './wakeup';

// Waits here are a day long: only notify() or abort can end them before the test times out.
const DAY_MS = 86_400_000;

describe('Wakeup', () => {
  it('ends a wait in progress on notify', async () => {
    const wakeup = new Wakeup();
    const waiting = wakeup.wait(DAY_MS);
    wakeup.notify();
    await expect(waiting).resolves.toBeUndefined();
  });

  it('remembers a notify that came before the wait', async () => {
    const wakeup = new Wakeup();
    wakeup.notify();
    await expect(wakeup.wait(DAY_MS)).resolves.toBeUndefined();
  });

  it('remembers only one notify', async () => {
    const wakeup = new Wakeup();
    wakeup.notify();
    wakeup.notify();
    await wakeup.wait(DAY_MS);
    const controller = new AbortController();
    const second = wakeup.wait(DAY_MS, controller.signal);
    let settled = false;
    void second.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    controller.abort();
    await second;
  });

  it('ends a wait on abort, and does not wait at all when already aborted', async () => {
    const wakeup = new Wakeup();
    const controller = new AbortController();
    const waiting = wakeup.wait(DAY_MS, controller.signal);
    controller.abort();
    await expect(waiting).resolves.toBeUndefined();
    await expect(wakeup.wait(DAY_MS, controller.signal)).resolves.toBeUndefined();
  });
});
