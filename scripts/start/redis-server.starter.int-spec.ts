import { Redis } from 'ioredis';
import { findOnPath } from './executable-lookup';
import { findFreePort, isAcceptingConnections } from './port-probe';
import { groupIsAlive } from './process-group';
import { startRedisServer } from './redis-server.starter';

describe('startRedisServer', () => {
  const executable = findOnPath('redis-server', process.env['PATH']);

  it('finds redis-server on PATH (CI installs it)', () => {
    expect(executable).toBeDefined();
  });

  it('runs a redis-server without persistence and stops it with nothing left', async () => {
    const port = await findFreePort({ host: '127.0.0.1', preferred: 56_379 });
    const started = await startRedisServer({
      executable: executable ?? 'redis-server',
      port: port ?? 0,
      cwd: process.cwd(),
      prefix: '[redis]',
      write: () => undefined,
    });
    if ('ok' in started) throw new Error(started.reason);
    const client = new Redis(started.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
    try {
      await client.connect();
      expect(await client.config('GET', 'save')).toEqual(['save', '']);
      expect(await client.config('GET', 'appendonly')).toEqual(['appendonly', 'no']);
    } finally {
      client.disconnect();
      await started.stop();
    }
    expect(groupIsAlive(started.group.pid)).toBe(false);
    expect(await isAcceptingConnections('127.0.0.1', port ?? 0)).toBe(false);
  });
});

describe('findOnPath', () => {
  it('returns undefined for a name that is nowhere on PATH', () => {
    expect(findOnPath('gatehouse-no-such-binary', process.env['PATH'])).toBeUndefined();
  });
});
