import { spawn, type SpawnOptions } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createLinePrefixer } from './line-prefixer';

export type ExitStatus = { code: number | null; signal: NodeJS.Signals | null };

export type ProcessGroup = {
  name: string;
  pid: number;
  /** Settles when the group leader has exited (never rejects). */
  exited: Promise<ExitStatus>;
  /** Whether the leader has exited. */
  hasExited(): boolean;
  /**
   * Sends `signal` to the whole group, waits up to `graceMs` for every member to be gone, then SIGKILLs
   * whatever is left of the group. Safe to call more than once.
   */
  stop(options?: { signal?: NodeJS.Signals; graceMs?: number; leaderOnly?: boolean }): Promise<void>;
};

export type StartProcessGroupOptions = {
  name: string;
  command: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Output prefix (already formatted); each line of stdout and stderr is written with it. */
  prefix: string;
  write: (line: string) => void;
  uid?: number;
  gid?: number;
};

/**
 * Live (non-zombie) members of a process group, read from /proc where there is one. Zombies are skipped: a
 * member orphaned by its parent is reparented to PID 1, and where PID 1 does not reap (some containers) it
 * would stay a zombie forever although it holds nothing. Undefined when /proc is not available.
 */
export function liveGroupMembers(pgid: number): number[] | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const members: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after the parenthesized command name: state, ppid, pgrp, ...
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z') members.push(Number(entry));
  }
  return members;
}

/** True while at least one live process of the group exists. */
export function groupIsAlive(pgid: number): boolean {
  const members = liveGroupMembers(pgid);
  if (members !== undefined) return members.length > 0;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    // EPERM: members exist but belong to another user (e.g. postgres after dropping root).
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // The group is already gone.
  }
}

/** Resolves once `check` is false or `timeoutMs` passed; there is no event for "a process group is empty". */
async function waitUntil(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (check()) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

/**
 * Spawns a child as the leader of its own process group (`detached`), so a terminal's Ctrl-C reaches only
 * this script, which then stops each group in order, and so grandchildren (`next start`'s server, postgres
 * backends) are stopped with their parent instead of being orphaned.
 */
export function startProcessGroup(options: StartProcessGroupOptions): ProcessGroup {
  const spawnOptions: SpawnOptions = {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  };
  if (options.uid !== undefined) spawnOptions.uid = options.uid;
  if (options.gid !== undefined) spawnOptions.gid = options.gid;
  const child = spawn(options.command, [...options.args], spawnOptions);

  let exitStatus: ExitStatus | undefined;
  const exited = new Promise<ExitStatus>((resolve) => {
    child.once('error', (error) => {
      options.write(`${options.prefix} failed to start: ${error.message}\n`);
      exitStatus = { code: 127, signal: null };
      resolve(exitStatus);
    });
    child.once('exit', (code, signal) => {
      exitStatus = { code, signal };
      resolve(exitStatus);
    });
  });

  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    const prefixer = createLinePrefixer(options.prefix, options.write);
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => prefixer.push(chunk));
    stream.on('end', () => prefixer.flush());
  }

  const pid = child.pid ?? -1;
  let stopping: Promise<void> | undefined;

  const stop: ProcessGroup['stop'] = (stopOptions = {}) => {
    stopping ??= (async () => {
      if (pid <= 0) return;
      const signal = stopOptions.signal ?? 'SIGTERM';
      const graceMs = stopOptions.graceMs ?? 10_000;
      if (stopOptions.leaderOnly) {
        if (exitStatus === undefined) child.kill(signal);
      } else {
        signalGroup(pid, signal);
      }
      const leaderGone = await Promise.race([
        exited.then(() => true),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), graceMs).unref()),
      ]);
      if (leaderGone) await waitUntil(() => groupIsAlive(pid), 2_000);
      if (groupIsAlive(pid)) {
        signalGroup(pid, 'SIGKILL');
        await waitUntil(() => groupIsAlive(pid), 2_000);
      }
      await exited;
    })();
    return stopping;
  };

  return { name: options.name, pid, exited, hasExited: () => exitStatus !== undefined, stop };
}
