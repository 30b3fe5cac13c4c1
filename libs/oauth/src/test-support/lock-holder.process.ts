// Starts lock-holder.child.ts in its own node process (TypeScript through jiti, the lib aliases mapped to
// their sources) and resolves once it holds the lock.
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
    jiti.import(${JSON.stringify(join(__dirname, 'lock-holder.child.ts'))});
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
