import { connect, createServer } from 'node:net';

/** True when something accepts a TCP connection on host:port (a server we could use). */
export function isAcceptingConnections(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const finish = (accepting: boolean): void => {
      socket.removeAllListeners();
      socket.destroy();
      resolve(accepting);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}

/** True when we could listen on host:port right now (nobody else holds it). */
export function isPortFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen({ host, port, exclusive: true }, () => {
      server.close(() => resolve(true));
    });
  });
}

export type FindFreePortOptions = {
  host: string;
  /** The first port to try; the next ones are tried in order. */
  preferred: number;
  /** How many consecutive ports to try before giving up. */
  attempts?: number;
};

/** The first free port from `preferred` upward, or undefined when all `attempts` ports are taken. */
export async function findFreePort(options: FindFreePortOptions): Promise<number | undefined> {
  const attempts = options.attempts ?? 20;
  for (let port = options.preferred; port < options.preferred + attempts && port <= 65_535; port += 1) {
    if (await isPortFree(options.host, port)) return port;
  }
  return undefined;
}
