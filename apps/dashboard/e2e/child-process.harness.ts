import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

// Child processes of the browser test (the built API, `next build`, `next start`, the operator CLI), each in
// its own process group so that stopping it also stops what it started (`next start` runs next-server as a
// child). Readiness is awaited as an event (a line the process prints), never by sleeping.

export interface RunningProcess {
  readonly name: string;
  /** Everything the process printed so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

export interface StartOptions {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Resolves once a line of stdout or stderr matches. */
  readonly ready: RegExp;
}

const OUTPUT_LIMIT = 200_000;

function collect(child: ChildProcess): () => string {
  let text = '';
  const append = (chunk: Buffer) => {
    text = (text + chunk.toString('utf8')).slice(-OUTPUT_LIMIT);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  return () => text;
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Every live descendant of `pid`, from /proc (empty where there is none). */
function descendantsOf(pid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const entry of entries) {
    try {
      // Field 4 of /proc/<pid>/stat is the parent pid; the command name (field 2) may contain spaces.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // Gone meanwhile.
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift() as number) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

function signal(target: number, name: NodeJS.Signals): void {
  try {
    process.kill(target, name);
  } catch {
    // Already gone.
  }
}

/**
 * Stops the process group and anything the process started in a group of its own (`next start` runs
 * next-server in a new process group): SIGTERM first, SIGKILL for whatever ignores it.
 */
function stopGroup(child: ChildProcess): Promise<void> {
  const done = exited(child);
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return done;
  const leader = child.pid;
  const descendants = descendantsOf(leader);
  signal(-leader, 'SIGTERM');
  for (const pid of descendants) signal(pid, 'SIGTERM');
  // A process that ignores SIGTERM is killed; the timer is a safety net, not a wait for readiness.
  const force = setTimeout(() => {
    signal(-leader, 'SIGKILL');
    for (const pid of descendants) signal(pid, 'SIGKILL');
  }, 10_000);
  return done.finally(() => clearTimeout(force));
}

export async function startProcess(options: StartOptions): Promise<RunningProcess> {
  const child = spawn(options.command, [...options.args], {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collect(child);
  const running: RunningProcess = { name: options.name, output, stop: () => stopGroup(child) };
  await new Promise<void>((resolve, reject) => {
    const onData = () => {
      if (options.ready.test(output())) {
        cleanup();
        resolve();
      }
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`${options.name} exited (${code}) before it was ready:\n${output().slice(-4000)}`));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(new Error(`${options.name} could not start: ${error.message}`));
    };
    const cleanup = () => {
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      child.off('error', onError);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onError);
  });
  return running;
}

/** Runs a command to completion; rejects with its output when it fails. */
export function runProcess(options: Omit<StartOptions, 'ready'> & { stdin?: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.command, [...options.args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const output = collect(child);
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stdin?.end(options.stdin ?? '');
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(`${options.name} failed (${code}):\n${output().slice(-4000)}`));
    });
  });
}
