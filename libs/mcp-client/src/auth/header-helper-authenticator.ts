import { spawn } from 'node:child_process';
import { checkHeaderHelperAuthority } from '@gatehouse/activation';
import type { ProcessAuthority } from '@gatehouse/contracts';
import { childEnvironment } from '../stdio/child-environment.js';
import { createPrivateHome } from '../stdio/private-home.js';
import { isCwdWritableBy } from '../stdio/writable-cwd.guard.js';
import { checkSpawnAuthority } from '../stdio/spawn-authority.guard.js';
import { McpTransportError } from '../transport/transport-error.js';
import type { Authenticator } from './authenticator.js';
import { parseHeaderHelperOutput } from './header-helper-output-parser.js';
import type { ProcessGroupObserver } from '../stdio/process-group-stdio-transport.js';

// A header helper as an authenticator: the exact argv the pool's authority allows, run without a shell, in the
// first allowed root, in its own process group, with the minimal environment; its stdout parsed strictly and
// its stderr drained unread. Run once per connection (on the first request) and at most once more after the
// server refuses its headers; never a third time on one connection. Nothing it prints is logged or kept in an
// error.

export interface HeaderHelperOptions {
  readonly argv: readonly string[];
  readonly authority: ProcessAuthority;
  /** Pool config: whether header helpers may run here at all. */
  readonly helpersAllowed: boolean;
  readonly searchPath: string;
  /** Names the server in errors (`scheme://host:port`). */
  readonly origin: string;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly runAs: { readonly uid: number; readonly gid: number } | null;
  /** Told of each run's process group while it runs (the worker's reaper, should the worker die meanwhile). */
  readonly groups?: ProcessGroupObserver | null;
}

export const DEFAULT_HELPER_TIMEOUT_MS = 10_000;
export const DEFAULT_HELPER_MAX_OUTPUT_BYTES = 64 * 1024;
const MAX_RUNS_PER_CONNECTION = 2;

export function createHeaderHelperAuthenticator(options: HeaderHelperOptions): Authenticator {
  let current: Promise<Readonly<Record<string, string>>> | null = null;
  let runs = 0;
  const run = (): Promise<Readonly<Record<string, string>>> => {
    runs += 1;
    return runHeaderHelper(options);
  };
  return {
    headers() {
      current ??= run();
      return current;
    },
    async refresh() {
      if (runs >= MAX_RUNS_PER_CONNECTION) return false;
      current = run();
      try {
        await current;
        return true;
      } catch {
        return false;
      }
    },
  };
}

async function runHeaderHelper(options: HeaderHelperOptions): Promise<Readonly<Record<string, string>>> {
  const fail = (detail: string): McpTransportError =>
    new McpTransportError('authenticator_failed', options.origin, `header_helper_${detail}`);
  const allowed = checkHeaderHelperAuthority(options.argv, {
    helpersAllowed: options.helpersAllowed,
    commands: options.authority.commands,
    ceiling: options.authority.ceiling,
  });
  if (!allowed.ok) throw fail(allowed.reason);
  // A helper never gets a definition's env (only the spawner's baseline below), so it has no env name to check;
  // should it ever get some, they go through this same check against the lease's allowlist.
  const place = await checkSpawnAuthority({ argv: options.argv, cwd: null, envKeys: [] }, options.authority);
  if (!place.ok) throw fail(place.reason);
  if (
    options.runAs !== null &&
    (await isCwdWritableBy(place.cwd, options.authority.allowedRoots, options.runAs))
  )
    throw fail('cwd_writable');
  const [command, ...args] = options.argv;
  if (command === undefined) throw fail('command_not_allowed');

  const home = await createPrivateHome(options.runAs).catch(() => null);
  if (home === null) throw fail('spawn_failed');
  const output = await new Promise<string | null>((resolve) => {
    const child = spawn(command, args, {
      env: childEnvironment({ searchPath: options.searchPath, home: home.path, env: {} }),
      cwd: place.cwd,
      shell: false,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.runAs === null ? {} : { uid: options.runAs.uid, gid: options.runAs.gid }),
    });
    const chunks: Buffer[] = [];
    let bytes = 0;
    let settled = false;
    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const settle = (value: string | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      killGroup();
      resolve(value);
    };
    const timer = setTimeout(() => settle(null), options.timeoutMs);
    const pgid = child.pid;
    if (pgid !== undefined) {
      options.groups?.opened(pgid);
      child.once('close', () => options.groups?.closed(pgid));
    }
    child.stderr.resume();
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > options.maxOutputBytes) settle(null);
      else chunks.push(chunk);
    });
    child.once('error', () => settle(null));
    child.once('close', (code) => settle(code === 0 ? Buffer.concat(chunks).toString('utf8') : null));
  }).finally(home.remove);
  if (output === null) throw fail('failed');
  const parsed = parseHeaderHelperOutput(output);
  if (!parsed.ok) throw fail(parsed.reason);
  return parsed.headers;
}
