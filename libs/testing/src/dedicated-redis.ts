import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect, createServer, type AddressInfo } from 'node:net';

// A redis-server of one test file's own, on a free loopback port, that the test may stop and start again on the
// same port (a Redis restart, an outage) without touching the shared Redis every other file uses. No
// persistence at all: a restart comes back empty, the worst case for whoever relies on Redis keeping anything.

export interface DedicatedRedis {
  readonly url: string;
  readonly port: number;
  /** `SHUTDOWN NOSAVE`, then resolves once the process has exited (every client sees its socket close). */
  shutdown(): Promise<void>;
  /** Starts it again on the same port; resolves once it accepts connections. */
  restart(): Promise<void>;
  /** Stops it for good (afterAll); safe to call twice or while it is down. */
  stop(): Promise<void>;
}

export interface DedicatedRedisOptions {
  /** The redis-server executable (default `redis-server` on PATH). */
  readonly executable?: string;
}

const READY_LINE = 'Ready to accept connections';

export async function startDedicatedRedis(options: DedicatedRedisOptions = {}): Promise<DedicatedRedis> {
  const executable = options.executable ?? 'redis-server';
  const port = await freeLoopbackPort();
  let child: ChildProcess | null = await spawnRedis(executable, port);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    shutdown: async () => {
      const running = child;
      if (running === null) return;
      child = null;
      const exited = once(running, 'exit');
      // One raw RESP command on its own socket: no client library retrying or reconnecting around the shutdown.
      await sendShutdown(port);
      await exited;
    },
    restart: async () => {
      if (child !== null) throw new Error('the dedicated redis-server is running');
      child = await spawnRedis(executable, port);
    },
    stop: async () => {
      const running = child;
      child = null;
      if (running === null || running.exitCode !== null || running.signalCode !== null) return;
      const exited = once(running, 'exit');
      running.kill('SIGKILL');
      await exited;
    },
  };
}

async function spawnRedis(executable: string, port: number): Promise<ChildProcess> {
  const child = spawn(
    executable,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stderr?.resume();
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`redis-server exited at start (${code})`));
    child.once('error', reject);
    child.once('exit', onExit);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (!output.includes(READY_LINE)) return;
      child.off('exit', onExit);
      child.stdout?.removeAllListeners('data');
      child.stdout?.resume();
      resolve();
    });
  });
  return child;
}

async function sendShutdown(port: number): Promise<void> {
  const socket = connect({ host: '127.0.0.1', port });
  socket.on('error', () => undefined);
  await once(socket, 'connect');
  socket.end('*2\r\n$8\r\nSHUTDOWN\r\n$6\r\nNOSAVE\r\n');
  await once(socket, 'close');
}

function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
