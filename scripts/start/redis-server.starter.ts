import { mkdirSync } from 'node:fs';
import { isAcceptingConnections } from './port-probe';
import { startProcessGroup, type ProcessGroup } from './process-group';

export type RedisServerOptions = {
  executable: string;
  port: number;
  cwd: string;
  prefix: string;
  write: (line: string) => void;
  /**
   * Where the append-only file lives (`npm start`: .gatehouse/redis): Redis then keeps what it held across a
   * restart (appendonly, fsync every second). Absent: no persistence at all (the test runner: fast, nothing left).
   */
  dataDir?: string;
  /** Called as soon as redis-server is spawned, so a Ctrl-C during startup can stop it too. */
  onSpawn?: (stop: () => Promise<void>) => void;
};

export type RedisServer = { url: string; group: ProcessGroup; stop(): Promise<void> };

/**
 * Runs `redis-server` on 127.0.0.1:`port`. With `dataDir`, with an append-only file there (queues and locks
 * survive a restart; the revocation ledger itself is in Postgres either way); without, no persistence and no
 * file left behind. Never RDB snapshots (`--save ''`).
 */
export async function startRedisServer(
  options: RedisServerOptions,
): Promise<RedisServer | { ok: false; reason: string }> {
  const group = startProcessGroup({
    name: 'redis',
    command: options.executable,
    args: [
      '--port',
      String(options.port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      ...persistenceArgs(options.dataDir),
      '--daemonize',
      'no',
    ],
    env: process.env,
    cwd: options.cwd,
    prefix: options.prefix,
    write: options.write,
  });
  const stop = (): Promise<void> => group.stop({ signal: 'SIGTERM', graceMs: 5_000 });
  options.onSpawn?.(stop);
  const deadline = Date.now() + 15_000;
  while (!group.hasExited() && Date.now() < deadline) {
    if (await isAcceptingConnections('127.0.0.1', options.port, 500)) {
      return { url: `redis://127.0.0.1:${options.port}`, group, stop };
    }
    await Promise.race([new Promise((resolve) => setTimeout(resolve, 100)), group.exited]);
  }
  await stop();
  return { ok: false, reason: 'redis-server did not start (see the [redis] lines above)' };
}

function persistenceArgs(dataDir: string | undefined): string[] {
  if (dataDir === undefined) return ['--appendonly', 'no'];
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  return ['--appendonly', 'yes', '--appendfsync', 'everysec', '--dir', dataDir];
}
