// A separate process that takes a refresh lock and then waits to be killed (SIGKILL) before it could send
// anything: the "holder killed before sending" of issue 15. Run through jiti by startLockHolderProcess.
import { createRedisConnection, FencingLock } from '@gatehouse/coordination';

async function main(): Promise<void> {
  const [url, namespace, resource, ttl] = process.argv.slice(-4);
  const connection = createRedisConnection({
    url: url!,
    name: 'oauth-lock-holder-child',
    purpose: 'command',
  });
  const lock = new FencingLock({ connection, namespace: namespace! });
  const held = await lock.acquire(resource!, { ttlMs: Number(ttl), autoExtend: true });
  process.stdout.write(`${held ? 'holding' : 'not-holding'}\n`);
  // Keeps extending its lock until it is killed.
  setInterval(() => undefined, 1_000);
}

void main();
