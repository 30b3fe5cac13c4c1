import { chmod, copyFile, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AdmittedStdioTransport } from '@gatehouse/contracts';
import {
  connectAdmitted,
  superviseAdmitted,
  type AdmittedSession,
  type ConnectionSupervisor,
  type ConnectOptions,
} from '../index';

// A stdio child runs as the pool's configured unprivileged uid/gid when the worker runs as root (here: the
// `nobody` account), and an aborted request closes the child. The child is a dependency-free fixture copied
// into a 0755 temporary directory, so `nobody` can read it wherever the checkout lives (CI clones into
// directories other users may not enter).

const FIXTURE = join(__dirname, 'test-support/identity-server.fixture.cjs');
const NODE = process.execPath;
const SEARCH_PATH = `${dirname(NODE)}:/usr/bin:/bin`;
const asRoot = process.getuid?.() === 0;

interface Who {
  readonly uid: number;
  readonly gid: number;
  readonly pid: number;
  readonly cwd: string;
}

let dir: string;
let script: string;
let nobody: { uid: number; gid: number };

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'gh-13e-runas-')));
  await chmod(dir, 0o755);
  script = join(dir, 'identity-server.cjs');
  await copyFile(FIXTURE, script);
  await chmod(script, 0o644);
  const entry = (await readFile('/etc/passwd', 'utf8'))
    .split('\n')
    .find((line) => line.startsWith('nobody:'));
  const [, , uid, gid] = entry?.split(':') ?? [];
  nobody = { uid: Number(uid ?? NaN), gid: Number(gid ?? NaN) };
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const options = (overrides: Partial<ConnectOptions> = {}): ConnectOptions => ({
  serverName: 'identity',
  clientInfo: { name: 'gatehouse-test', version: '0.0.0' },
  defaultStartupTimeoutMs: 20_000,
  searchPath: SEARCH_PATH,
  closeGraceMs: 500,
  ...overrides,
});

const description = (runAs: { uid: number; gid: number } | null): AdmittedStdioTransport => ({
  kind: 'stdio',
  command: NODE,
  args: [script],
  env: {},
  cwd: null,
  authority: { commands: [[NODE, script]], ceiling: [[NODE]], allowedRoots: [dir], envKeys: [], runAs },
  startupTimeoutMs: null,
});

const sessions: AdmittedSession[] = [];
const supervisors: ConnectionSupervisor[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  await Promise.all(supervisors.splice(0).map((s) => s.close()));
});

async function connected(
  runAs: { uid: number; gid: number } | null,
  overrides: Partial<ConnectOptions> = {},
) {
  const result = await connectAdmitted(description(runAs), options(overrides));
  if (!result.ok) throw new Error(`connect failed: ${result.reason} ${result.detail ?? ''}`);
  sessions.push(result.session);
  return result.session;
}

async function whoami(session: AdmittedSession): Promise<Who> {
  const result = await session.callTool('whoami', {});
  return JSON.parse((result.content as { text: string }[])[0]?.text ?? 'null') as Who;
}

/** Whether a process still exists (a zombie awaiting its reaper counts as gone). */
async function isAlive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Polls until the pid is gone, bounded (the kernel signals no event a non-parent can await). */
async function goneWithin(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!(await isAlive(pid))) return true;
    await new Promise((done) => setImmediate(done));
  }
  return !(await isAlive(pid));
}

(asRoot ? describe : describe.skip)(
  'stdio child under the configured uid/gid (the worker runs as root)',
  () => {
    it('runs the child as nobody, in the allowed root', async () => {
      expect(Number.isInteger(nobody.uid) && nobody.uid > 0).toBe(true);
      const who = await whoami(await connected(nobody));
      expect(who).toMatchObject({ uid: nobody.uid, gid: nobody.gid, cwd: dir });
    });

    it('runs a child whose pool names no runAs as the unprivileged account (CHILD_USER), never as root', async () => {
      const who = await whoami(await connected(null, { unprivilegedUser: nobody }));
      expect(who).toMatchObject({ uid: nobody.uid, gid: nobody.gid });
    });

    it('refuses such a child where no unprivileged account is given (production), and spawns nothing', async () => {
      const result = await connectAdmitted(description(null), options());
      expect(result).toMatchObject({ ok: false, reason: 'run_as_required', failureClass: 'config' });
      const rooted = await connectAdmitted(
        description({ uid: 0, gid: 0 }),
        options({ unprivilegedUser: nobody }),
      );
      expect(rooted).toMatchObject({ ok: false, reason: 'run_as_required' });
    });

    it('runs it as the worker itself where the worker may not switch (configured so)', async () => {
      const who = await whoami(await connected(nobody, { canSwitchUser: false }));
      expect(who.uid).toBe(0);
    });
  },
);

describe('an aborted request closes the stdio child', () => {
  it('through the session: the call rejects, the session closes, the child is gone', async () => {
    const session = await connected(asRoot ? nobody : null);
    const { pid } = await whoami(session);
    const abort = new AbortController();
    const call = session.callTool('hang', {}, { signal: abort.signal, timeoutMs: 60_000 });
    abort.abort();
    await expect(call).rejects.toThrow();
    expect(session.isClosed).toBe(true);
    expect(await goneWithin(pid, 5_000)).toBe(true);
  });

  it('through the supervisor: the call is reported failed, never replayed, and the child is gone', async () => {
    const supervisor = superviseAdmitted(description(asRoot ? nobody : null), {
      connect: options(),
    });
    supervisors.push(supervisor);
    expect(await supervisor.start()).toBe('ready');
    const first = await supervisor.callTool('whoami', {});
    if (!first.ok) throw new Error(`whoami failed: ${first.reason}`);
    const { pid } = JSON.parse((first.result.content as { text: string }[])[0]?.text ?? 'null') as Who;
    const abort = new AbortController();
    const call = supervisor.callTool('hang', {}, { signal: abort.signal });
    abort.abort();
    expect(await call).toMatchObject({ ok: false, reason: 'call_failed' });
    expect(await goneWithin(pid, 5_000)).toBe(true);
  });
});
