import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

describe('startRedisServer with a data directory', () => {
  it('keeps an append-only file there, and what it held survives a restart', async () => {
    const executable = findOnPath('redis-server', process.env['PATH']) ?? 'redis-server';
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-redis-'));
    const port = (await findFreePort({ host: '127.0.0.1', preferred: 56_479 })) ?? 0;
    const start = async () => {
      const started = await startRedisServer({
        executable,
        port,
        cwd: process.cwd(),
        prefix: '[redis]',
        write: () => undefined,
        dataDir,
      });
      if ('ok' in started) throw new Error(started.reason);
      return started;
    };
    try {
      const first = await start();
      const client = new Redis(first.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
      await client.connect();
      expect(await client.config('GET', 'appendonly')).toEqual(['appendonly', 'yes']);
      await client.set('kept', 'yes');
      client.disconnect();
      await first.stop();
      const second = await start();
      const again = new Redis(second.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
      await again.connect();
      expect(await again.get('kept')).toBe('yes');
      again.disconnect();
      await second.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('findOnPath', () => {
  it('returns undefined for a name that is nowhere on PATH', () => {
    expect(findOnPath('gatehouse-no-such-binary', process.env['PATH'])).toBeUndefined();
  });
});
