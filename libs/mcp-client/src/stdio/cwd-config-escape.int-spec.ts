import { existsSync, readFileSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { accountInPasswd } from '@gatehouse/platform';
import { connectAdmitted, type ConnectOptions } from '../index';

// The env allowlist closed the names a definition sets, but a child's working directory is configuration too, and
// the definition chooses it (any directory under an allowed root). npm reads `.npmrc` from the project directory
// (the cwd, or its nearest ancestor holding package.json or node_modules): `node-options` there becomes the
// NODE_OPTIONS of what npx runs. So when an allowed root is writable by the account children run as, one allowed
// command that writes files (a filesystem server: it writes where the caller asks, runs no code) can leave an
// `.npmrc` there, and a second definition using another allowed command (`npx ... <package>`) with an EMPTY env
// starts under it: arbitrary code, though neither command runs any. The spawn refuses a working directory the
// child's account can write (or owns), or any directory between it and its root.

jest.setTimeout(60_000);

const asRoot = process.getuid?.() === 0;
const nobody = accountInPasswd(readFileSync('/etc/passwd', 'utf8'), 'nobody');
const NODE = process.execPath;
const SEARCH_PATH = [dirname(NODE), '/usr/local/bin', '/usr/bin', '/bin'].join(delimiter);
const NPX = join(dirname(NODE), 'npx');
const NPX_CEILING = [NPX, '--offline', '-y', 'gh-cwd-server'];

const options: ConnectOptions = {
  serverName: 'cwd-config-escape',
  clientInfo: { name: 'gatehouse-test', version: '0.0.0' },
  defaultStartupTimeoutMs: 20_000,
  searchPath: SEARCH_PATH,
  closeGraceMs: 200,
  unprivilegedUser: nobody,
};

function description(root: string, cwd: string) {
  const [command, ...args] = NPX_CEILING;
  return {
    kind: 'stdio',
    command,
    args,
    env: {},
    cwd,
    authority: {
      commands: [NPX_CEILING],
      ceiling: [NPX_CEILING],
      allowedRoots: [root],
      runAs: null,
      envKeys: [],
    },
    startupTimeoutMs: null,
  };
}

let root: string;
let canary: string;

beforeAll(async () => {
  // The operator's root, root-owned and 0755: a package npx runs offline (its bin answers nothing and exits).
  root = await realpath(await mkdtemp(join(tmpdir(), 'gh-cwd-escape-')));
  await chmod(root, 0o755);
  const pkg = join(root, 'node_modules', 'gh-cwd-server');
  await mkdir(pkg, { recursive: true });
  await writeFile(
    join(pkg, 'package.json'),
    JSON.stringify({ name: 'gh-cwd-server', version: '1.0.0', bin: { 'gh-cwd-server': 'server.cjs' } }),
  );
  await writeFile(join(pkg, 'server.cjs'), '#!/usr/bin/env node\nprocess.stdout.write("");\n');
  await chmod(join(pkg, 'server.cjs'), 0o755);
  await mkdir(join(root, 'node_modules', '.bin'));
  await symlink('../gh-cwd-server/server.cjs', join(root, 'node_modules', '.bin', 'gh-cwd-server'));
  // What an earlier child with write access would have left: a payload and an `.npmrc` that loads it.
  canary = join(root, 'canary');
  const payload = join(root, 'payload.cjs');
  await writeFile(payload, `require('node:fs').writeFileSync(${JSON.stringify(canary)}, 'ran');\n`);
  await writeFile(join(root, '.npmrc'), `node-options=--require=${payload}\nupdate-notifier=false\n`);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

(asRoot && nobody !== null ? describe : describe.skip)(
  'a working directory the child account may write',
  () => {
    it('is refused (cwd_writable) when the allowed root is the child account’s own, and nothing runs', async () => {
      await chown(root, nobody?.uid ?? -1, nobody?.gid ?? -1);
      try {
        const result = await connectAdmitted(description(root, root), options);
        expect(result).toMatchObject({ ok: false, reason: 'cwd_writable', failureClass: 'config' });
        expect({ payloadRan: existsSync(canary) }).toEqual({ payloadRan: false });
      } finally {
        await chown(root, 0, 0);
      }
    });

    it('is refused when a directory between the cwd and its root is writable by everyone', async () => {
      const inner = join(root, 'shared', 'inner');
      await mkdir(inner, { recursive: true });
      await chmod(join(root, 'shared'), 0o777);
      const result = await connectAdmitted(description(root, inner), options);
      expect(result).toMatchObject({ ok: false, reason: 'cwd_writable' });
    });

    it('the control: the same root, root-owned and 0755, lets the child start (so the refusal above is the check)', async () => {
      const result = await connectAdmitted(description(root, root), options);
      // The fixture's bin exits without answering: the handshake fails, but the spawn was not refused.
      expect(result.ok ? 'connected' : result.reason).not.toBe('cwd_writable');
      if (result.ok) await result.session.close();
    });
  },
);
