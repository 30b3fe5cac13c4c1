import { groupIsAlive, liveGroupMembers, startProcessGroup } from './process-group';

type Collector = { lines: string[]; write: (line: string) => void; waitFor: (line: string) => Promise<void> };

/** Collects written lines; `waitFor` resolves when a given line has been written (an event, not a timer). */
function collector(): Collector {
  const lines: string[] = [];
  const waiters: { line: string; resolve: () => void }[] = [];
  return {
    lines,
    write: (line) => {
      lines.push(line);
      for (const waiter of waiters.filter((w) => w.line === line)) waiter.resolve();
    },
    waitFor: (line) =>
      lines.includes(line) ? Promise.resolve() : new Promise((resolve) => waiters.push({ line, resolve })),
  };
}

function startShell(script: string, write: (line: string) => void) {
  return startProcessGroup({
    name: 'test',
    command: '/bin/sh',
    args: ['-c', script],
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
    cwd: process.cwd(),
    prefix: '[test]',
    write,
  });
}

describe('startProcessGroup', () => {
  it('prefixes stdout and stderr lines and reports the exit code', async () => {
    const out = collector();
    const group = startShell('echo hello; echo oops >&2; exit 3', out.write);
    expect(await group.exited).toEqual({ code: 3, signal: null });
    expect(out.lines.sort()).toEqual(['[test] hello\n', '[test] oops\n']);
  });

  it('runs the child as the leader of its own process group', async () => {
    const out = collector();
    const group = startShell('sleep 300', out.write);
    try {
      expect(liveGroupMembers(group.pid)).toContain(group.pid);
      expect(liveGroupMembers(process.pid)).not.toContain(group.pid);
    } finally {
      await group.stop({ graceMs: 2_000 });
    }
  });

  it('stops grandchildren with their parent', async () => {
    const out = collector();
    // The shell forks two sleeps (same group), then says so.
    const group = startShell('sleep 300 & sleep 300 & echo started; wait', out.write);
    await out.waitFor('[test] started\n');
    expect(liveGroupMembers(group.pid)?.length).toBe(3);
    await group.stop({ graceMs: 5_000 });
    expect(group.hasExited()).toBe(true);
    expect(groupIsAlive(group.pid)).toBe(false);
  });

  it('SIGKILLs a group that ignores SIGTERM once the grace period is over', async () => {
    const out = collector();
    const group = startShell("trap '' TERM; sleep 300 & echo started; wait", out.write);
    await out.waitFor('[test] started\n');
    await group.stop({ graceMs: 200 });
    expect((await group.exited).signal).toBe('SIGKILL');
    expect(groupIsAlive(group.pid)).toBe(false);
  });

  it('reports a command that cannot be spawned as exited', async () => {
    const out = collector();
    const group = startProcessGroup({
      name: 'missing',
      command: '/nonexistent/gatehouse-binary',
      args: [],
      env: {},
      cwd: process.cwd(),
      prefix: '[missing]',
      write: out.write,
    });
    expect((await group.exited).code).toBe(127);
    expect(out.lines.join('')).toContain('failed to start');
  });
});
