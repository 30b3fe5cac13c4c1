import { execFile, spawn } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { promisify } from 'node:util';
import * as activation from '@gatehouse/activation';
import { processAuthority } from '@gatehouse/contracts';
import { connectAdmitted, type ConnectOptions } from '../index';

// The stdio environment escape, at the spawn moment: a definition may run only a command the pool allows, yet the
// env it sets is configuration for whatever that command starts. npm turns any `npm_config_<key>` into config and
// copies `node-options` into NODE_OPTIONS for the program it runs; Python imports a module named in
// PYTHONWARNINGS (antigravity opens $BROWSER, a shell line); git takes config (a command to run) from
// GIT_CONFIG_*; a JVM launcher, a shell, the dynamic loader and a HOME holding an `.npmrc` do the same with their
// own names. So each case spawns a REAL child through connectAdmitted with an allowed command and only a
// malicious env, and expects the spawn refused before anything runs (`env_key_not_allowed`, naming the key) and
// no canary. Beside each, a control runs the same command with
// the same env through plain child_process (not our code) and proves the payload really creates its canary on
// this machine, so a refusal that stopped working fails here.
//
// Every case is judged under two allowlists: an empty one and the default one (a pool without `childEnvKeys`).

jest.setTimeout(60_000);

const NODE = process.execPath;
/** The operator's PATH for children here: node's directory first, then the system's. */
const SEARCH_PATH = [dirname(NODE), '/usr/local/bin', '/usr/bin', '/bin'].join(delimiter);

/** A program on SEARCH_PATH, by absolute path (the argv check compares exact strings). */
function onSearchPath(name: string): string {
  for (const directory of SEARCH_PATH.split(delimiter)) {
    const candidate = join(directory, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  throw new Error(`${name} is not on ${SEARCH_PATH}: these specs need it to show the escape is real`);
}

const NPX = onSearchPath('npx');
const NPM = onSearchPath('npm');
const PYTHON = onSearchPath('python3');
const JAVA = onSearchPath('java');
const BASH = onSearchPath('bash');
const SH = onSearchPath('sh');
const TRUE = onSearchPath('true');
const GCC = onSearchPath('gcc');
const GIT = onSearchPath('git');
/** pnpm is not installed here: npm fetches this exact version into its own cache when the spec starts. */
const PNPM_PACKAGE = 'pnpm@10.24.0';
let pnpm = '';

/** The names the spawner sets for every child (what childEnvironment starts from), as the control sets them. */
const SPAWNER_BASELINE = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'] as const;

/** The default allowlist, where this tree has one (it is what a pool without `childEnvKeys` uses). */
const DEFAULT_ALLOWLIST = (activation as unknown as Record<string, unknown>)['DEFAULT_CHILD_ENV_KEYS'];
const ALLOWLISTS: readonly (readonly [string, readonly string[]])[] = [
  ['an empty allowlist', []],
  ['the default allowlist', Array.isArray(DEFAULT_ALLOWLIST) ? (DEFAULT_ALLOWLIST as string[]) : []],
];

/**
 * The pool's authority allowing exactly this argv, with the env allowlist where the lease's schema carries one (a
 * strict schema without `envKeys` would refuse the description as invalid: the escape would never be exercised).
 */
function authority(
  argv: readonly string[],
  root: string,
  envKeys: readonly string[],
): Record<string, unknown> {
  const base = { commands: [argv], ceiling: [argv], allowedRoots: [root], runAs: null };
  return 'envKeys' in processAuthority.shape ? { ...base, envKeys } : base;
}

function description(
  argv: readonly string[],
  env: Record<string, string>,
  root: string,
  envKeys: readonly string[],
) {
  const [command, ...args] = argv;
  return {
    kind: 'stdio',
    command,
    args,
    env,
    cwd: null,
    authority: authority(argv, root, envKeys),
    startupTimeoutMs: null,
  };
}

const options: ConnectOptions = {
  serverName: 'env-escape',
  clientInfo: { name: 'gatehouse-test', version: '0.0.0' },
  defaultStartupTimeoutMs: 20_000,
  searchPath: SEARCH_PATH,
  closeGraceMs: 200,
  // Children run as this process's user: the canary directories are its own.
  canSwitchUser: false,
};

/** Where a payload leaves its mark: one per child, in that child's own directory. */
const canaryIn = (dir: string): string => join(dir, 'canary');

/** Node code that creates the canary, as a data: URL for `--import` (no spaces: NODE_OPTIONS splits on them). */
const importWritingCanary = (canary: string): string =>
  `--import=data:text/javascript,import('node:fs').then(f=>f.writeFileSync(${JSON.stringify(canary).replace(/"/g, "'")},'ran'))`;

/** A local package npx and `npm exec` run without the network: its bin only prints and exits. */
async function localPackage(dir: string): Promise<void> {
  const pkg = join(dir, 'node_modules', 'gh-escape-server');
  await mkdir(pkg, { recursive: true });
  await writeFile(
    join(pkg, 'package.json'),
    JSON.stringify({ name: 'gh-escape-server', version: '1.0.0', bin: { 'gh-escape-server': 'server.cjs' } }),
  );
  await writeFile(join(pkg, 'server.cjs'), '#!/usr/bin/env node\nprocess.stdout.write("");\n');
  await chmod(join(pkg, 'server.cjs'), 0o755);
  await mkdir(join(dir, 'node_modules', '.bin'));
  await symlink('../gh-escape-server/server.cjs', join(dir, 'node_modules', '.bin', 'gh-escape-server'));
  // HOME is the child's cwd: keep npm from asking the registry whether it is current.
  await writeFile(join(dir, '.npmrc'), 'update-notifier=false\n');
}

/** A shared object whose constructor creates the canary (the loader runs it before `main`). */
async function canaryLibrary(dir: string): Promise<string> {
  const source = join(dir, 'hook.c');
  const library = join(dir, 'hook.so');
  await writeFile(
    source,
    [
      '#include <fcntl.h>',
      '#include <unistd.h>',
      '__attribute__((constructor)) static void canary(void) {',
      `  int fd = open(${JSON.stringify(canaryIn(dir))}, O_CREAT | O_WRONLY, 0600);`,
      '  if (fd >= 0) close(fd);',
      '}',
      '',
    ].join('\n'),
  );
  await run([GCC, '-shared', '-fPIC', '-o', library, source], { PATH: SEARCH_PATH }, dir);
  return library;
}

interface Escape {
  /** The ecosystem and the name(s) that carry the payload. */
  readonly name: string;
  /** The allowed command (the pool's authority is exactly this argv). */
  readonly argv: (dir: string) => readonly string[];
  /** Only the malicious env: nothing else is wrong with the definition. */
  readonly env: (dir: string) => Record<string, string>;
  /** Files the payload needs in the child's directory (a local package, a shared object, an rc file). */
  readonly prepare?: (dir: string) => Promise<void>;
}

const ESCAPES: readonly Escape[] = [
  {
    name: 'npx: npm_config_node_options (the reported escape)',
    argv: () => [NPX, '--offline', '-y', 'gh-escape-server'],
    env: (dir) => ({ npm_config_node_options: importWritingCanary(canaryIn(dir)) }),
    prepare: localPackage,
  },
  {
    name: 'npm exec: NPM_CONFIG_NODE_OPTIONS (upper case)',
    argv: () => [NPM, 'exec', '--offline', '--', 'gh-escape-server'],
    env: (dir) => ({ NPM_CONFIG_NODE_OPTIONS: importWritingCanary(canaryIn(dir)) }),
    prepare: localPackage,
  },
  {
    name: 'npx: Npm_Config_Node_Options (npm reads its prefix in any case)',
    argv: () => [NPX, '--offline', '-y', 'gh-escape-server'],
    env: (dir) => ({ Npm_Config_Node_Options: importWritingCanary(canaryIn(dir)) }),
    prepare: localPackage,
  },
  {
    name: 'npx: HOME naming a directory whose .npmrc sets node-options',
    argv: () => [NPX, '--offline', '-y', 'gh-escape-server'],
    env: (dir) => ({ HOME: join(dir, 'home') }),
    prepare: async (dir) => {
      await localPackage(dir);
      await mkdir(join(dir, 'home'));
      const payload = join(dir, 'home', 'payload.cjs');
      await writeFile(
        payload,
        `require('node:fs').writeFileSync(${JSON.stringify(canaryIn(dir))}, 'ran');\n`,
      );
      await writeFile(
        join(dir, 'home', '.npmrc'),
        `node-options=--require=${payload}\nupdate-notifier=false\n`,
      );
    },
  },
  {
    name: 'npx: PATH naming a directory with another node (the bin is #!/usr/bin/env node)',
    argv: () => [NPX, '--offline', '-y', 'gh-escape-server'],
    env: (dir) => ({ PATH: [join(dir, 'bin'), SEARCH_PATH].join(delimiter) }),
    prepare: async (dir) => {
      await localPackage(dir);
      await mkdir(join(dir, 'bin'));
      await writeFile(join(dir, 'bin', 'node'), `#!/bin/sh\n: > ${JSON.stringify(canaryIn(dir))}\n`);
      await chmod(join(dir, 'bin', 'node'), 0o755);
    },
  },
  {
    name: 'pnpm dlx: npm_config_global_pnpmfile (pnpm loads the pnpmfile, code, while it installs)',
    argv: (dir) => [pnpm, 'dlx', `file:${join(dir, 'dlx-package')}`],
    env: (dir) => ({ npm_config_global_pnpmfile: join(dir, 'pnpmfile.cjs') }),
    prepare: async (dir) => {
      const pkg = join(dir, 'dlx-package');
      await mkdir(pkg);
      await writeFile(
        join(pkg, 'package.json'),
        JSON.stringify({ name: 'gh-dlx-server', version: '1.0.0', bin: { 'gh-dlx-server': 'bin.cjs' } }),
      );
      await writeFile(join(pkg, 'bin.cjs'), '#!/usr/bin/env node\n');
      await chmod(join(pkg, 'bin.cjs'), 0o755);
      await writeFile(
        join(dir, 'pnpmfile.cjs'),
        `require('node:fs').writeFileSync(${JSON.stringify(canaryIn(dir))}, 'ran');\nmodule.exports = { hooks: {} };\n`,
      );
    },
  },
  {
    name: 'python3: PYTHONWARNINGS importing antigravity, which opens BROWSER (a shell line)',
    argv: () => [PYTHON, '-c', 'pass'],
    env: (dir) => ({
      PYTHONWARNINGS: 'all:0:antigravity.x:0:0',
      // webbrowser splits BROWSER on ':' (a list of browsers): the shell line holds none.
      BROWSER: `/bin/sh -c '> ${canaryIn(dir)}' #%s`,
    }),
  },
  {
    name: 'pip: PIP_LOG writing a file wherever it names',
    argv: () => [PYTHON, '-m', 'pip', 'config', 'list'],
    env: (dir) => ({ PIP_LOG: canaryIn(dir) }),
  },
  {
    name: 'node: NODE_OPTIONS --require',
    argv: () => [NODE, '-e', 'void 0'],
    env: (dir) => ({ NODE_OPTIONS: `--require=${join(dir, 'payload.cjs')}` }),
    prepare: (dir) =>
      writeFile(
        join(dir, 'payload.cjs'),
        `require('node:fs').writeFileSync(${JSON.stringify(canaryIn(dir))}, 'ran');\n`,
      ),
  },
  {
    name: 'node: NODE_OPTIONS --import of a data: URL',
    argv: () => [NODE, '-e', 'void 0'],
    env: (dir) => ({ NODE_OPTIONS: importWritingCanary(canaryIn(dir)) }),
  },
  {
    name: 'node: NODE_V8_COVERAGE writing wherever it names',
    argv: () => [NODE, '-e', 'void 0'],
    env: (dir) => ({ NODE_V8_COVERAGE: canaryIn(dir) }),
  },
  {
    name: 'java: JDK_JAVA_OPTIONS (the launcher reads it)',
    argv: () => [JAVA, '-version'],
    env: (dir) => ({ JDK_JAVA_OPTIONS: `-Xlog:gc:file=${canaryIn(dir)}` }),
  },
  {
    name: 'java: JAVA_TOOL_OPTIONS (the JVM reads it)',
    argv: () => [JAVA, '-version'],
    env: (dir) => ({ JAVA_TOOL_OPTIONS: `-Xlog:gc:file=${canaryIn(dir)}` }),
  },
  {
    name: 'java: _JAVA_OPTIONS',
    argv: () => [JAVA, '-version'],
    env: (dir) => ({ _JAVA_OPTIONS: `-Xlog:gc:file=${canaryIn(dir)}` }),
  },
  {
    name: 'bash: BASH_ENV (expanded, then sourced, by a non-interactive bash)',
    argv: () => [BASH, '-c', 'true'],
    env: (dir) => ({ BASH_ENV: `$(: > ${canaryIn(dir)})` }),
  },
  {
    name: 'sh: ENV (expanded by an interactive POSIX shell)',
    argv: () => [SH, '-i', '-c', 'true'],
    env: (dir) => ({ ENV: `$(: > ${canaryIn(dir)})` }),
  },
  {
    name: 'git: GIT_CONFIG_COUNT/KEY/VALUE setting core.fsmonitor (a command git runs)',
    argv: () => [GIT, 'status'],
    env: (dir) => ({
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'core.fsmonitor',
      GIT_CONFIG_VALUE_0: `: > ${canaryIn(dir)}; false`,
    }),
    prepare: async (dir) => void (await run([GIT, 'init', '-q', dir], { PATH: SEARCH_PATH, HOME: dir }, dir)),
  },
  {
    name: 'the dynamic loader: LD_PRELOAD',
    argv: () => [TRUE],
    env: (dir) => ({ LD_PRELOAD: join(dir, 'hook.so') }),
    prepare: async (dir) => void (await canaryLibrary(dir)),
  },
  {
    name: 'the dynamic loader: LD_AUDIT',
    argv: () => [TRUE],
    env: (dir) => ({ LD_AUDIT: join(dir, 'hook.so') }),
    prepare: async (dir) => void (await canaryLibrary(dir)),
  },
];

/**
 * Names some runtime reads as configuration whose payload is not shown here (uv is not on the npm registry and not
 * installed; pnpm's other names beside the pnpmfile case above), or that the spawner owns: refused all the same, by
 * name. pnpm reads
 * `npm_config_*` and `pnpm_config_*` as config (`node-options` included) and PNPM_HOME for where it installs;
 * uv reads `UV_*` (an index URL or a python to run); pip `PIP_*`.
 */
const REFUSED_WITHOUT_PAYLOAD: readonly (readonly [string, string])[] = [
  ['pnpm', 'pnpm_config_node_options'],
  ['pnpm', 'npm_config_node_options'],
  ['pnpm', 'PNPM_HOME'],
  ['pnpm', 'npm_config_registry'],
  ['uv', 'UV_INDEX_URL'],
  ['uv', 'UV_PYTHON'],
  ['pip', 'PIP_INDEX_URL'],
  ['the spawner', 'USER'],
  ['the spawner', 'SHELL'],
  ['the spawner', 'LOGNAME'],
  ['the spawner', 'TERM'],
];

interface Ran {
  readonly code: number | null;
  readonly stderr: string;
}

/** Runs a program to its exit (every stdio stream closed), collecting stderr for a failure's message. */
function run(argv: readonly string[], env: Record<string, string>, cwd: string): Promise<Ran> {
  const [command, ...args] = argv;
  return new Promise((resolve, reject) => {
    const child = spawn(command as string, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** The environment the spawner would give the child, with the definition's env on top, built here by hand. */
function controlEnvironment(dir: string, env: Record<string, string>): Record<string, string> {
  const baseline: Record<string, string> = {};
  for (const key of SPAWNER_BASELINE) baseline[key] = '';
  return { ...baseline, PATH: SEARCH_PATH, HOME: dir, ...env };
}

let base: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'gh-env-escape-')));
  // The path of the fetched pnpm, so the pool's authority can name it exactly.
  const { stdout } = await promisify(execFile)(
    'npm',
    ['exec', '--yes', `--package=${PNPM_PACKAGE}`, '--', 'sh', '-c', 'command -v pnpm'],
    { timeout: 180_000 },
  );
  pnpm = stdout.trim().split('\n').pop() ?? '';
  if (!isAbsolute(pnpm) || !existsSync(pnpm))
    throw new Error(`npm exec ${PNPM_PACKAGE} gave no pnpm (${pnpm})`);
}, 240_000);

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** A fresh directory for one child: its cwd, its allowed root, its HOME and where its canary would go. */
async function childDirectory(label: string, escape?: Escape): Promise<string> {
  const dir = await mkdtemp(join(base, `${label}-`));
  await escape?.prepare?.(dir);
  return dir;
}

/** Spawns through connectAdmitted (closing a session that should never have been, so the child has exited). */
async function connectThroughOurCode(
  argv: readonly string[],
  env: Record<string, string>,
  dir: string,
  envKeys: readonly string[],
) {
  const result = await connectAdmitted(description(argv, env, dir, envKeys), options);
  if (result.ok) {
    await result.session.close();
    return { ok: true as const };
  }
  return { ok: false as const, reason: result.reason, detail: result.detail };
}

describe('a stdio definition cannot configure what its allowed command runs (env allowlist, spawn moment)', () => {
  describe.each(ESCAPES)('$name', (escape) => {
    it.each(ALLOWLISTS)(
      'is refused at spawn under %s, naming the key; nothing runs',
      async (_label, envKeys) => {
        const dir = await childDirectory('spawned', escape);
        const env = escape.env(dir);
        const result = await connectThroughOurCode(escape.argv(dir), env, dir, envKeys);
        // The canary first: where the check fails open, this is what says the payload ran.
        expect({ canaryCreated: existsSync(canaryIn(dir)) }).toEqual({ canaryCreated: false });
        expect(result).toEqual({ ok: false, reason: 'env_key_not_allowed', detail: expect.any(String) });
        expect(Object.keys(env)).toContain(result.ok ? null : result.detail);
      },
    );

    it('control: the same command and env through plain child_process run the payload on this machine', async () => {
      const dir = await childDirectory('control', escape);
      const argv = escape.argv(dir);
      const ran = await run(argv, controlEnvironment(dir, escape.env(dir)), dir);
      if (!existsSync(canaryIn(dir))) {
        throw new Error(`the payload did not run (exit ${String(ran.code)}): ${ran.stderr.slice(0, 2000)}`);
      }
    });
  });

  describe.each(REFUSED_WITHOUT_PAYLOAD)('%s: %s', (_reader, key) => {
    it.each(ALLOWLISTS)('is refused at spawn under %s, naming the key', async (_label, envKeys) => {
      const dir = await childDirectory('refused');
      const result = await connectThroughOurCode(
        [NODE, '-e', 'void 0'],
        { [key]: canaryIn(dir) },
        dir,
        envKeys,
      );
      expect(result).toEqual({ ok: false, reason: 'env_key_not_allowed', detail: key });
      expect(existsSync(canaryIn(dir))).toBe(false);
    });
  });

  it('still spawns a child whose env the allowlist allows (the refusal is about the names, not every env)', async () => {
    const dir = await childDirectory('allowed');
    const allowed = ['MCP_ESCAPE_TEST'];
    const env = { MCP_ESCAPE_TEST: 'value' };
    const result = await connectThroughOurCode(
      [
        NODE,
        '-e',
        `require('node:fs').writeFileSync(${JSON.stringify(canaryIn(dir))}, process.env.MCP_ESCAPE_TEST)`,
      ],
      env,
      dir,
      allowed,
    );
    // Not an MCP server: the handshake fails once it exits, having run (the allowed key reached it).
    expect(result).toMatchObject({ ok: false, reason: 'connection_failed' });
    expect(existsSync(canaryIn(dir))).toBe(true);
  });
});
