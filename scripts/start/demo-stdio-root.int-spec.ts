import { spawn } from 'node:child_process';
import { chmod, chown, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { accountInPasswd } from '@gatehouse/platform';
import { readFileSync } from 'node:fs';
import { DEMO_STDIO_COMMAND } from './demo-pool';
import { demoStdioRoot } from './demo-stdio-root';

// As root, `npm start` runs the demo's stdio server as `nobody`. From a checkout nobody cannot enter, the pinned
// package is staged offline into a world-readable directory, and the pinned command answers there as nobody.

const asRoot = process.getuid?.() === 0;
const nobody = accountInPasswd(readFileSync('/etc/passwd', 'utf8'), 'nobody');
const REPO = join(__dirname, '..', '..');

let closed: string;
let staging: string;

beforeAll(async () => {
  // A checkout only root may enter, with the repository's installed packages.
  closed = await mkdtemp(join(tmpdir(), 'gh-closed-checkout-'));
  await chmod(closed, 0o700);
  await symlink(join(REPO, 'node_modules'), join(closed, 'node_modules'));
  staging = await mkdtemp('/var/tmp/gh-demo-staging-');
});

afterAll(async () => {
  await rm(closed, { recursive: true, force: true });
  await rm(staging, { recursive: true, force: true });
});

/** Sends `initialize` to the pinned command as nobody in `cwd` and resolves with the first line it answers. */
function initializeAsNobody(cwd: string): Promise<string> {
  const child = spawn(DEMO_STDIO_COMMAND[0], DEMO_STDIO_COMMAND.slice(1), {
    cwd,
    uid: nobody?.uid,
    gid: nobody?.gid,
    env: { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, HOME: cwd, npm_config_offline: 'true' },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  child.stdin.write(
    `${JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } },
    })}\n`,
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const line = out.split('\n').find((candidate) => candidate.startsWith('{'));
      if (line !== undefined) {
        child.kill();
        resolve(line);
      }
    });
    child.on('error', reject);
    child.on('exit', () => reject(new Error(`exited before answering: ${out.slice(0, 200)}`)));
  });
}

(asRoot ? describe : describe.skip)('the demo stdio root, as root', () => {
  it('is the checkout when children keep this process’s user (CHILD_USER=self)', () => {
    expect(demoStdioRoot(REPO, 'self', staging)).toEqual({ root: REPO, note: null });
  });

  it('is a staged copy of the pinned package when the checkout is closed to the child account', async () => {
    const chosen = demoStdioRoot(closed, undefined, staging);
    expect(chosen.root).toBe(join(staging, '2026.8.31'));
    expect(chosen.note).toContain(chosen.root);
    const answer = JSON.parse(await initializeAsNobody(chosen.root)) as { result?: { serverInfo?: unknown } };
    expect(answer.result?.serverInfo).toBeDefined();
    // A second start reuses the staged copy.
    expect(demoStdioRoot(closed, undefined, staging)).toEqual(chosen);
  }, 120_000);

  it('refuses a staging directory someone else could have planted (not root-owned, or writable by others)', async () => {
    const planted = await mkdtemp('/var/tmp/gh-demo-planted-');
    try {
      await chmod(planted, 0o777);
      expect(() => demoStdioRoot(closed, undefined, planted)).toThrow(/not a root-owned directory/);
      await chmod(planted, 0o755);
      await chown(planted, nobody?.uid ?? -1, nobody?.gid ?? -1);
      expect(() => demoStdioRoot(closed, undefined, planted)).toThrow(/not a root-owned directory/);
    } finally {
      await rm(planted, { recursive: true, force: true });
    }
  });
});
