// Starts refresh-coordinator.child.ts in its own node process (TypeScript through jiti, the lib aliases mapped
// to their sources) and talks to it over stdin/stdout, one JSON line per command and answer.
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { CredentialKey, RegisteredClient } from '@gatehouse/oauth';

const ROOT = resolve(__dirname, '../../../../..');

export interface RefreshChildConfig {
  readonly databaseUrl: string;
  readonly redisUrl: string;
  readonly namespace: string;
  readonly keys: string;
  readonly client: RegisteredClient;
  readonly lockTtlMs: number;
  readonly grantTimeoutMs: number;
  readonly leaseMarginMs: number;
}

export interface RefreshChildAnswer {
  readonly id: number;
  readonly ok: number;
  readonly refusals: readonly string[];
  readonly digests: readonly string[];
}

export class RefreshCoordinatorProcess {
  private nextId = 0;
  private readonly waiting = new Map<number, (answer: RefreshChildAnswer) => void>();

  private constructor(readonly child: ChildProcess) {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const answer = JSON.parse(line) as RefreshChildAnswer;
      this.waiting.get(answer.id)?.(answer);
      this.waiting.delete(answer.id);
    });
  }

  static async start(config: RefreshChildConfig): Promise<RefreshCoordinatorProcess> {
    const launcher = `
      const { createJiti } = require('jiti');
      const { compilerOptions } = require(${JSON.stringify(join(ROOT, 'tsconfig.base.json'))});
      const alias = Object.fromEntries(
        Object.entries(compilerOptions.paths).map(([name, [target]]) => [name, require('node:path').join(${JSON.stringify(ROOT)}, target)]),
      );
      const jiti = createJiti(${JSON.stringify(join(ROOT, 'package.json'))}, { alias });
      jiti.import(${JSON.stringify(join(__dirname, 'refresh-coordinator.child.ts'))});
    `;
    const child = spawn(process.execPath, ['-e', launcher, '--', JSON.stringify(config)], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { PATH: process.env.PATH ?? '' },
    });
    const lines = createInterface({ input: child.stdout! });
    const first = await new Promise<string>((done, fail) => {
      child.once('exit', (code) => fail(new Error(`refresh coordinator exited early (${code})`)));
      lines.once('line', done);
    });
    lines.close();
    if (first !== 'ready') throw new Error(`refresh coordinator: ${first}`);
    child.removeAllListeners('exit');
    return new RefreshCoordinatorProcess(child);
  }

  /** `callers` concurrent getAccessToken calls in that process; resolves with what they got. */
  getAccessToken(key: CredentialKey, callers: number): Promise<RefreshChildAnswer> {
    const id = (this.nextId += 1);
    return new Promise((done, fail) => {
      this.waiting.set(id, done);
      this.child.once('exit', (code, signal) => fail(new Error(`coordinator exited (${code ?? signal})`)));
      this.child.stdin!.write(`${JSON.stringify({ id, op: 'get', key, callers })}\n`);
    });
  }

  kill(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve();
    const exited = new Promise<void>((done) => this.child.once('exit', () => done()));
    this.child.kill('SIGKILL');
    return exited;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((done) => this.child.once('exit', () => done()));
    this.child.stdin!.end();
    this.child.kill('SIGTERM');
    await exited;
  }
}
