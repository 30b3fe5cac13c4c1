import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { connectAdmitted, type ConnectOptions } from '../index';

// The env allowlist closed the names a definition sets, but a child's working directory is configuration too, and
// the definition chooses it (any directory under an allowed root). npm reads `.npmrc` from the project directory
// (the cwd, or its nearest ancestor holding package.json or node_modules) and from HOME, which the spawner sets to
// that same cwd; `node-options` there becomes NODE_OPTIONS of what npx runs. So when an allowed root is writable by
// the account children run as (what decision 0131 asks of a pool whose servers need a writable home, since HOME is
// the cwd), a definition using one allowed command that writes files (a filesystem server: it writes where the
// caller asks, runs no code) leaves an `.npmrc` there, and a second definition using another allowed command
// (`npx ... <package>`) with an EMPTY env starts under it: arbitrary code, though neither command runs any.
//
// Expected: the second spawn must not run the payload (for example: a cwd, or a directory between it and its
// root, writable by the child's account is refused at the spawn check; HOME a fresh spawner-owned directory alone
// is not enough, since npm reads the project's `.npmrc` from the cwd as well).

jest.setTimeout(60_000);

const NODE = process.execPath;
const SEARCH_PATH = [dirname(NODE), '/usr/local/bin', '/usr/bin', '/bin'].join(delimiter);
const NPX = join(dirname(NODE), 'npx');

const options: ConnectOptions = {
  serverName: 'cwd-config-escape',
  clientInfo: { name: 'gatehouse-test', version: '0.0.0' },
  defaultStartupTimeoutMs: 20_000,
  searchPath: SEARCH_PATH,
  closeGraceMs: 200,
  // Children run as this process's user, who can write the root: the precondition, as a pool runAs account with a
  // writable home has it.
  canSwitchUser: false,
};

/** The stand-in for a filesystem server: writes the file its arguments name, runs nothing it is given. */
const WRITER = [
  "const fs = require('node:fs');",
  'const [path, content] = process.argv.slice(2);',
  'fs.writeFileSync(path, content);',
].join('\n');

function description(argv: readonly string[], ceiling: readonly string[], root: string) {
  const [command, ...args] = argv;
  return {
    kind: 'stdio',
    command,
    args,
    env: {},
    cwd: root,
    authority: { commands: [ceiling], ceiling: [ceiling], allowedRoots: [root], runAs: null, envKeys: [] },
    startupTimeoutMs: null,
  };
}

async function spawnOnce(argv: readonly string[], ceiling: readonly string[], root: string): Promise<void> {
  const result = await connectAdmitted(description(argv, ceiling, root), options);
  if (result.ok) await result.session.close();
}

let root: string;

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gh-cwd-escape-')));
  // The operator's installed fixtures: the writer, and a package npx runs offline (its bin only exits).
  await writeFile(join(root, 'writer.cjs'), WRITER);
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
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

it('an .npmrc one allowed child wrote in an allowed root does not run code in the next child started there', async () => {
  const canary = join(root, 'canary');
  const payload = join(root, 'payload.cjs');
  const writerCeiling = [NODE, join(root, 'writer.cjs')];
  // Definition 1 (allowed command: the writer; env empty): two files, as a filesystem server's write tool would.
  await spawnOnce(
    [...writerCeiling, payload, `require('node:fs').writeFileSync(${JSON.stringify(canary)}, 'ran');\n`],
    writerCeiling,
    root,
  );
  await spawnOnce(
    [...writerCeiling, join(root, '.npmrc'), `node-options=--require=${payload}\nupdate-notifier=false\n`],
    writerCeiling,
    root,
  );
  expect(existsSync(join(root, '.npmrc'))).toBe(true);

  // Definition 2 (allowed command: npx of one pinned package; env empty; cwd the allowed root).
  const npxCeiling = [NPX, '--offline', '-y', 'gh-cwd-server'];
  await spawnOnce(npxCeiling, npxCeiling, root);

  expect({ payloadRan: existsSync(canary) }).toEqual({ payloadRan: false });
});
