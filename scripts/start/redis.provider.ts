import { join } from 'node:path';
import { findOnPath } from './executable-lookup';
import { findFreePort, isAcceptingConnections } from './port-probe';
import { startRedisServer } from './redis-server.starter';
import { StartFailure } from './start-failure';

export type ProvidedRedis = {
  url: string;
  /** How we got it, for the summary. */
  source: 'REDIS_URL' | 'local' | 'started';
};

export type ProvideRedisOptions = {
  env: Readonly<Record<string, string | undefined>>;
  root: string;
  prefix: string;
  write: (line: string) => void;
  /** A redis-server we start keeps an append-only file here; absent, it runs without persistence. */
  dataDir?: string;
  /** Registers the stop of a redis-server we spawn, as soon as it is spawned. */
  onSpawn: (stop: () => Promise<void>) => void;
};

const LOCAL_HOST = '127.0.0.1';
const LOCAL_PORT = 6379;

/** REDIS_URL when set; else a Redis on 127.0.0.1:6379; else a redis-server from PATH that we start and stop. */
export async function provideRedis(options: ProvideRedisOptions): Promise<ProvidedRedis> {
  const configured = options.env['REDIS_URL'];
  if (configured) return { url: configured, source: 'REDIS_URL' };
  const forceOwn = options.env['GATEHOUSE_START_REDIS'] === '1';
  if (!forceOwn && (await isAcceptingConnections(LOCAL_HOST, LOCAL_PORT))) {
    return { url: `redis://${LOCAL_HOST}:${LOCAL_PORT}`, source: 'local' };
  }
  const executable = findOnPath('redis-server', options.env['PATH']);
  if (!executable) {
    throw new StartFailure(
      'no Redis on 127.0.0.1:6379 and no redis-server on PATH: install Redis (Debian/Ubuntu: sudo apt-get install redis-server; macOS: brew install redis) or set REDIS_URL',
    );
  }
  const port = await findFreePort({ host: LOCAL_HOST, preferred: forceOwn ? LOCAL_PORT + 1 : LOCAL_PORT });
  if (port === undefined) throw new StartFailure('no free port for redis-server near 6379');
  const started = await startRedisServer({
    executable,
    port,
    cwd: join(options.root, '.gatehouse'),
    prefix: options.prefix,
    write: options.write,
    onSpawn: options.onSpawn,
    ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
  });
  if ('ok' in started) throw new StartFailure(started.reason);
  return { url: started.url, source: 'started' };
}
