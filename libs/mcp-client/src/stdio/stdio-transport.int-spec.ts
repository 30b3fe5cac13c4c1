import { mkdtemp, mkdir, readdir, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { AdmittedStdioTransport } from '@gatehouse/contracts';
import { connectAdmitted, type AdmittedSession, type ConnectOptions } from '../index';

// Real children: @modelcontextprotocol/server-everything and server-filesystem (nobody here wrote them), and a
// small SDK server of our own for the edges (process group, environment, receive cap, abort).

const ROOT_DIR = resolve(__dirname, '../../../..');
const EVERYTHING = join(ROOT_DIR, 'node_modules/.bin/mcp-server-everything');
const FILESYSTEM = join(ROOT_DIR, 'node_modules/.bin/mcp-server-filesystem');
const FIXTURE = join(__dirname, 'test-support/forking-server.fixture.cjs');
const NODE = process.execPath;
const SEARCH_PATH = `${dirname(NODE)}:/usr/bin:/bin`;
const CANARY = 'GATEHOUSE_WORKER_CANARY_13B';

let root: string;
let outside: string;

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gh-13b-root-')));
  outside = await realpath(await mkdtemp(join(tmpdir(), 'gh-13b-outside-')));
  await mkdir(join(root, 'work'));
  await symlink(outside, join(root, 'escape'));
  await writeFile(join(root, 'a-file'), 'not a directory');
  await writeFile(join(root, 'work', 'hello.txt'), 'hello from the allowed root');
  process.env[CANARY] = 'the worker environment must not reach a child';
});

afterAll(async () => {
  delete process.env[CANARY];
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

const options = (overrides: Partial<ConnectOptions> = {}): ConnectOptions => ({
  serverName: 'under-test',
  clientInfo: { name: 'gatehouse-test', version: '0.0.0' },
  defaultStartupTimeoutMs: 30_000,
  searchPath: SEARCH_PATH,
  canSwitchUser: false, // children run as the test itself: the checkout may be out of nobody's reach
  closeGraceMs: 500,
  ...overrides,
});

function stdio(
  command: string,
  args: string[],
  overrides: Partial<AdmittedStdioTransport> = {},
): AdmittedStdioTransport {
  return {
    kind: 'stdio',
    command,
    args,
    env: {},
    cwd: null,
    authority: {
      commands: [[command]],
      ceiling: [[command]],
      allowedRoots: [root],
      envKeys: ['API_KEY'],
      runAs: null,
    },
    startupTimeoutMs: null,
    ...overrides,
  };
}

async function connected(
  description: AdmittedStdioTransport,
  overrides: Partial<ConnectOptions> = {},
): Promise<AdmittedSession> {
  const result = await connectAdmitted(description, options(overrides));
  if (!result.ok) throw new Error(`connect failed: ${result.reason} ${result.detail ?? ''}`);
  return result.session;
}

function textOf(result: { content?: unknown }): string {
  const content = result.content as { type: string; text?: string }[];
  return content.map((part) => part.text ?? '').join('');
}

/** Whether a process still exists (a zombie awaiting its reaper counts as gone). */
async function isAlive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const { readFile } = await import('node:fs/promises');
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

describe('stdio transport against real servers', () => {
  it('connects to server-everything over stdio, lists and calls a tool, and reports its identity', async () => {
    const session = await connected(stdio(EVERYTHING, ['stdio']));
    try {
      expect(session.identity).toMatchObject({ serverName: 'under-test', protocolVersion: '2025-11-25' });
      expect(session.identity.serverInfo.name).toEqual(expect.any(String));
      const tools = await session.client.listTools();
      expect(tools.tools.map((tool) => tool.name)).toContain('echo');
      const echoed = await session.callTool('echo', { message: 'hi from gatehouse' });
      expect(textOf(echoed)).toContain('hi from gatehouse');
    } finally {
      await session.close();
    }
  });

  it('runs server-filesystem under a temporary allowed root (absent cwd: the root)', async () => {
    const session = await connected(stdio(FILESYSTEM, [root]));
    try {
      const listed = await session.callTool('list_directory', { path: join(root, 'work') });
      expect(textOf(listed)).toContain('hello.txt');
      const read = await session.callTool('read_text_file', { path: join(root, 'work', 'hello.txt') });
      expect(textOf(read)).toContain('hello from the allowed root');
      const refused = await session.callTool('read_text_file', { path: join(outside, 'x') });
      expect(refused.isError).toBe(true);
    } finally {
      await session.close();
    }
  });
});

describe('stdio transport edges', () => {
  const fixture = (overrides: Partial<AdmittedStdioTransport> = {}): AdmittedStdioTransport =>
    stdio(NODE, [FIXTURE], {
      authority: {
        commands: [[NODE, FIXTURE]],
        ceiling: [[NODE]],
        allowedRoots: [root],
        envKeys: ['API_KEY'],
        runAs: null,
      },
      ...overrides,
    });

  it('starts in the allowed root with exactly the environment it was given, nothing of the worker', async () => {
    const session = await connected(fixture({ env: { API_KEY: 'given' } }));
    try {
      const seen = JSON.parse(textOf(await session.callTool('whoami', {}))) as {
        cwd: string;
        env: Record<string, string>;
      };
      expect(seen.cwd).toBe(root);
      expect(seen.env[CANARY]).toBeUndefined();
      expect(seen.env).toMatchObject({ API_KEY: 'given', PATH: SEARCH_PATH });
      for (const key of ['LOGNAME', 'SHELL', 'TERM', 'USER']) expect(seen.env[key]).toBe('');
    } finally {
      await session.close();
    }
  });

  it('gives each child a HOME of its own, empty and private, never the shared root, gone when it closes', async () => {
    const first = await connected(fixture());
    const second = await connected(fixture());
    const homes: string[] = [];
    try {
      for (const session of [first, second]) {
        const seen = JSON.parse(textOf(await session.callTool('whoami', {}))) as {
          env: Record<string, string>;
        };
        const home = seen.env['HOME'] ?? '';
        expect(home.startsWith(join(tmpdir(), 'gatehouse-child-home-'))).toBe(true);
        expect(await readdir(home)).toEqual([]);
        expect((await stat(home)).mode & 0o777).toBe(0o700);
        homes.push(home);
      }
      expect(homes[0]).not.toBe(homes[1]);
      expect(homes).not.toContain(root);
    } finally {
      await first.close();
      await second.close();
    }
    for (const home of homes) await expect(stat(home)).rejects.toThrow();
  });

  it('closes the child and the grandchild it forked (process group)', async () => {
    const session = await connected(fixture());
    const { pid: childPid } = JSON.parse(textOf(await session.callTool('whoami', {}))) as { pid: number };
    const { pid: grandchildPid } = JSON.parse(textOf(await session.callTool('fork', {}))) as { pid: number };
    expect(await isAlive(childPid)).toBe(true);
    expect(await isAlive(grandchildPid)).toBe(true);
    await session.close();
    expect(await goneWithin(childPid, 5_000)).toBe(true);
    expect(await goneWithin(grandchildPid, 5_000)).toBe(true);
  });

  it('tells its process-group observer of the child’s group as it starts and once it is gone', async () => {
    const seen: string[] = [];
    const session = await connected(fixture(), {
      processGroups: {
        opened: (pgid) => seen.push(`+${pgid}`),
        closed: (pgid) => seen.push(`-${pgid}`),
      },
    });
    const { pid } = JSON.parse(textOf(await session.callTool('whoami', {}))) as { pid: number };
    // The child leads its own group: the group id an outside reaper signals is its pid.
    expect(seen).toEqual([`+${pid}`]);
    await session.close();
    expect(seen).toEqual([`+${pid}`, `-${pid}`]);
  });

  it('closes the child when an in-flight request times out (no cancellation is pretended)', async () => {
    const session = await connected(fixture());
    const { pid } = JSON.parse(textOf(await session.callTool('whoami', {}))) as { pid: number };
    await expect(session.callTool('hang', {}, { timeoutMs: 1_000 })).rejects.toThrow(/timed out/i);
    expect(session.isClosed).toBe(true);
    expect(await goneWithin(pid, 5_000)).toBe(true);
  });

  it('refuses a message larger than the receive cap before parsing it, and drops the connection', async () => {
    const session = await connected(fixture(), { receiveCapBytes: 16 * 1024 });
    const { pid } = JSON.parse(textOf(await session.callTool('whoami', {}))) as { pid: number };
    await expect(session.callTool('big', {})).rejects.toThrow();
    expect(await goneWithin(pid, 5_000)).toBe(true);
    await session.close();
  });

  it.each([
    ['a symlink out of the root', () => join(root, 'escape'), 'cwd_escapes_root'],
    ['a file', () => join(root, 'a-file'), 'cwd_not_a_directory'],
    ['a missing directory', () => join(root, 'missing'), 'cwd_not_a_directory'],
    ['traversal', () => `${root}/work/../..`, 'cwd_outside_allowed_roots'],
  ])('refuses a cwd that is %s, before spawning', async (_label, cwd, reason) => {
    const result = await connectAdmitted(fixture({ cwd: cwd() }), options());
    expect(result).toMatchObject({ ok: false, reason, server: 'under-test', failureClass: 'config' });
  });

  it('refuses an unlisted command, a command outside the ceiling and an env key outside the allowlist before spawning', async () => {
    const other = stdio('/bin/sh', ['-c', 'exit 0'], {
      authority: {
        commands: [[NODE, FIXTURE]],
        ceiling: [[NODE]],
        allowedRoots: [root],
        envKeys: ['API_KEY'],
        runAs: null,
      },
    });
    expect(await connectAdmitted(other, options())).toMatchObject({
      ok: false,
      reason: 'command_not_allowed',
    });
    const outsideCeiling = fixture({
      authority: {
        commands: [[NODE, FIXTURE]],
        ceiling: [['/opt/elsewhere/bin/node']],
        allowedRoots: [root],
        envKeys: ['API_KEY'],
        runAs: null,
      },
    });
    expect(await connectAdmitted(outsideCeiling, options())).toMatchObject({
      ok: false,
      reason: 'command_outside_ceiling',
    });
    expect(await connectAdmitted(fixture({ env: { LD_PRELOAD: '/tmp/x.so' } }), options())).toMatchObject({
      ok: false,
      reason: 'env_key_not_allowed',
      detail: 'LD_PRELOAD',
      failureClass: 'config',
    });
  });

  it('rechecks activation immediately before spawning', async () => {
    const result = await connectAdmitted(fixture(), options({ stillAdmitted: () => false }));
    expect(result).toMatchObject({ ok: false, reason: 'no_longer_admitted' });
  });

  it('refuses an out-of-range startupTimeoutMs at its dial, and bounds a handshake that never answers', async () => {
    expect(await connectAdmitted(fixture({ startupTimeoutMs: 10 }), options())).toMatchObject({
      ok: false,
      reason: 'startup_timeout_invalid',
      failureClass: 'config',
    });
    const silent = stdio(NODE, ['-e', 'setInterval(() => {}, 1000)'], {
      authority: {
        commands: [[NODE, '-e']],
        ceiling: [[NODE]],
        allowedRoots: [root],
        envKeys: ['API_KEY'],
        runAs: null,
      },
      startupTimeoutMs: 1_000,
    });
    expect(await connectAdmitted(silent, options())).toMatchObject({
      ok: false,
      reason: 'startup_timeout',
      failureClass: 'transient',
    });
  });
});
