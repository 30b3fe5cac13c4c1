import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { testRedisUrl } from '@gatehouse/testing';
import { startProcess, type RunningProcess } from './child-process.harness';
import { REPOSITORY_ROOT, type DashboardStack } from './dashboard-stack.harness';

// The built worker (`node dist/apps/worker/src/main.js`, as `npm start` and its container run it) beside a
// dashboard stack: it consumes the catalog-refresh queue of one pool with a worker token the test minted, so
// an approval or a "refresh now" in the browser is discovered for real.

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

export async function startWorker(
  stack: DashboardStack,
  options: { readonly token: string; readonly pool: string },
): Promise<RunningProcess> {
  const running = await startProcess({
    name: `worker (${options.pool})`,
    command: process.execPath,
    args: [join(REPOSITORY_ROOT, 'dist', 'apps', 'worker', 'src', 'main.js')],
    cwd: REPOSITORY_ROOT,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      WORKER_HOST: '127.0.0.1',
      WORKER_PORT: String(await freePort()),
      REDIS_URL: testRedisUrl(),
      REDIS_KEY_PREFIX: stack.redisKeyPrefix,
      QUEUE_PREFIX: stack.queuePrefix,
      API_URL: stack.apiUrl,
      WORKER_TOKEN: options.token,
      WORKER_POOL: options.pool,
      WORKER_CONCURRENCY: '2',
      // The server's script starts with `#!/usr/bin/env node`: the child finds this node on its PATH.
      CHILD_PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
      CHILD_USER: 'self',
      CHILD_CLOSE_GRACE_MS: '500',
    },
    ready: /worker listening/,
  });
  stack.adopt(running);
  return running;
}
