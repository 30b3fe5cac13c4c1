// A separate process that takes a refresh lock (the real FencingLock, extending itself) and holds it until it is
// killed (SIGKILL) before it could send anything: the "holder killed before sending" case of refresh once
// (docs/architecture/oauth.md). The process loads @gatehouse/coordination from source through jiti (the lib
// aliases mapped to their sources) at run time, so this lib does not depend on coordination (whose own tests
// use this lib). Resolves once it holds the lock.
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = resolve(__dirname, '../../../..');

export async function startLockHolderProcess(args: {
  readonly redisUrl: string;
  readonly namespace: string;
  readonly resource: string;
  readonly ttlMs: number;
}): Promise<ChildProcess> {
  const launcher = `
    const { createJiti } = require('jiti');
    const { compilerOptions } = require(${JSON.stringify(join(ROOT, 'tsconfig.base.json'))});
    const alias = Object.fromEntries(
      Object.entries(compilerOptions.paths).map(([name, [target]]) => [name, require('node:path').join(${JSON.stringify(ROOT)}, target)]),
    );
    const jiti = createJiti(${JSON.stringify(join(ROOT, 'package.json'))}, { alias });
    const [url, namespace, resource, ttl] = process.argv.slice(-4);
    jiti.import('@gatehouse/coordination').then(async ({ createRedisConnection, FencingLock }) => {
      const connection = createRedisConnection({ url, name: 'oauth-lock-holder-child', purpose: 'command' });
      const lock = new FencingLock({ connection, namespace });
      const held = await lock.acquire(resource, { ttlMs: Number(ttl), autoExtend: true });
      process.stdout.write(held ? 'holding\\n' : 'not-holding\\n');
      // Keeps extending its lock until it is killed.
      setInterval(() => undefined, 1000);
    });
  `;
  const child = spawn(
    process.execPath,
    ['-e', launcher, '--', args.redisUrl, args.namespace, args.resource, String(args.ttlMs)],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], env: { PATH: process.env.PATH ?? '' } },
  );
  const line = await new Promise<string>((done, fail) => {
    child.once('exit', (code) => fail(new Error(`lock holder exited early (${code})`)));
    createInterface({ input: child.stdout! }).once('line', done);
  });
  if (line !== 'holding') throw new Error(`lock holder: ${line}`);
  return child;
}
