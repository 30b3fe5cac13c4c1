import { createServer, type Server } from 'node:net';
import { findFreePort, isAcceptingConnections, isPortFree } from './port-probe';

function listen(port = 0): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.end());
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port }, () => resolve(server));
  });
}

function portOf(server: Server): number {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('not a TCP server');
  return address.port;
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

describe('port probing on loopback', () => {
  it('sees a listening port as accepting and taken, and a closed one as neither', async () => {
    const server = await listen();
    const port = portOf(server);
    expect(await isAcceptingConnections('127.0.0.1', port)).toBe(true);
    expect(await isPortFree('127.0.0.1', port)).toBe(false);
    await close(server);
    expect(await isAcceptingConnections('127.0.0.1', port)).toBe(false);
    expect(await isPortFree('127.0.0.1', port)).toBe(true);
  });

  it('skips a taken preferred port and returns the next free one', async () => {
    const server = await listen();
    const taken = portOf(server);
    try {
      const found = await findFreePort({ host: '127.0.0.1', preferred: taken, attempts: 10 });
      expect(found).toBeDefined();
      expect(found).not.toBe(taken);
      expect(found).toBeGreaterThan(taken);
      expect(await isPortFree('127.0.0.1', found ?? 0)).toBe(true);
    } finally {
      await close(server);
    }
  });

  it('gives up after the allowed attempts', async () => {
    const server = await listen();
    try {
      expect(
        await findFreePort({ host: '127.0.0.1', preferred: portOf(server), attempts: 1 }),
      ).toBeUndefined();
    } finally {
      await close(server);
    }
  });
});
