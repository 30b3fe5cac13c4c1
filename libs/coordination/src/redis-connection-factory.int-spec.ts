import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { testRedisUrl } from '@gatehouse/testing';
import type { CoordinationLogger } from './coordination-logger';
import { closeRedis, createRedisConnection } from './redis-connection-factory';

interface LogLine {
  readonly level: 'info' | 'warn' | 'error';
  readonly bindings: Record<string, unknown>;
  readonly message: string;
}

function capturingLogger(): { logger: CoordinationLogger; lines: LogLine[]; firstWarn: Promise<LogLine> } {
  const lines: LogLine[] = [];
  let resolveWarn: (line: LogLine) => void = () => undefined;
  const firstWarn = new Promise<LogLine>((resolve) => (resolveWarn = resolve));
  const push = (level: LogLine['level']) => (bindings: Record<string, unknown>, message: string) => {
    const line = { level, bindings, message };
    lines.push(line);
    if (level === 'warn') resolveWarn(line);
  };
  return { logger: { info: push('info'), warn: push('warn'), error: push('error') }, lines, firstWarn };
}

describe('createRedisConnection / closeRedis against the real Redis', () => {
  it('connects with its name visible to the operator, and closes gracefully', async () => {
    const connection = createRedisConnection({
      url: testRedisUrl(),
      name: 'factory-test',
      purpose: 'subscriber',
    });
    expect(await connection.client('GETNAME')).toBe('factory-test:subscriber');
    expect(connection.options.maxRetriesPerRequest).toBeNull();
    await closeRedis(connection);
    expect(connection.status).toBe('end');
    // A second close is a no-op.
    await closeRedis(connection);
  });

  it('applies the key prefix to keys', async () => {
    const prefix = `factory-test-${process.pid}-${Date.now()}:`;
    const prefixed = createRedisConnection({
      url: testRedisUrl(),
      name: 'factory-prefixed',
      purpose: 'command',
      keyPrefix: prefix,
    });
    const plain = createRedisConnection({ url: testRedisUrl(), name: 'factory-plain', purpose: 'command' });
    try {
      await prefixed.set('k', 'v', 'PX', 60_000);
      expect(await plain.get(`${prefix}k`)).toBe('v');
      await plain.del(`${prefix}k`);
    } finally {
      await Promise.all([closeRedis(prefixed), closeRedis(plain)]);
    }
  });

  it('logs an unreachable Redis without the password, and still closes', async () => {
    // Port 1 on loopback: nothing listens there, so every connection attempt is refused.
    const { logger, lines, firstWarn } = capturingLogger();
    const connection = createRedisConnection({
      url: 'redis://gatehouse:s3cret-password@127.0.0.1:1/0',
      name: 'factory-unreachable',
      purpose: 'command',
      logger,
    });
    const warned = await firstWarn;
    expect(warned.bindings).toMatchObject({ connection: 'factory-unreachable:command' });
    await closeRedis(connection, { timeoutMs: 1_000 });
    expect(connection.status).toBe('end');
    expect(JSON.stringify(lines)).not.toContain('s3cret-password');
    // Only the first error of an outage is logged, however many reconnect attempts failed.
    expect(lines.filter((line) => line.level === 'warn')).toHaveLength(1);
  });

  it('closes at once a connection waiting out its reconnect delay (ioredis emits no end for it)', async () => {
    const connection = createRedisConnection({
      url: 'redis://127.0.0.1:1/0',
      name: 'factory-reconnecting',
      purpose: 'command',
      logger: capturingLogger().logger,
    });
    await new Promise<void>((resolve) => connection.once('reconnecting', () => resolve()));
    expect(connection.status).toBe('reconnecting');
    // A bound no test waits out: the close resolves because nothing is left to wait for, not because it expired.
    await closeRedis(connection, { timeoutMs: 10 * 60_000 });
    // ioredis leaves the status as it was; its retry timer is cancelled, so no attempt follows.
    expect(connection.status).toBe('reconnecting');
  });

  it('closes within the bound when the server accepts the socket but never answers', async () => {
    const sockets: Socket[] = [];
    const server: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const connection = createRedisConnection({
      url: `redis://127.0.0.1:${port}`,
      name: 'factory-silent',
      purpose: 'subscriber',
    });
    try {
      await new Promise<void>((resolve) => server.once('connection', () => resolve()));
      await closeRedis(connection, { timeoutMs: 200 });
      expect(connection.status).toBe('end');
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
