import { spawn } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { placeEmbeddedPostgres } from './embedded-postgres.placement';
import { postgresOsUser, type OsUser } from './postgres-os-user';
import { startProcessGroup, type ProcessGroup } from './process-group';

// We use the PostgreSQL binaries that the `embedded-postgres` package installs for this platform, but not its
// `EmbeddedPostgres` class: that class registers async-exit-hook handlers that call process.exit() on SIGINT
// and SIGTERM before our own shutdown has stopped the apps, and it starts postgres inside our process group,
// so a terminal's Ctrl-C would fast-stop the database under apps that are still draining. Here postgres gets
// its own process group and is stopped last, on our schedule.

export type EmbeddedPostgresOptions = {
  dataDir: string;
  port: number;
  superuserPassword: string;
  prefix: string;
  write: (line: string) => void;
  /** Called as soon as postgres is spawned, so a Ctrl-C during startup can stop it too. */
  onSpawn?: (stop: () => Promise<void>) => void;
  /** The platform package's `native/bin` (default: the installed `@embedded-postgres/<os>-<arch>`). */
  binDir?: string;
  /** Where binaries and data are staged when the postgres OS user cannot reach them (see the placement). */
  stagingRoot?: string;
};

export type EmbeddedPostgres = {
  /** Superuser URL of the `postgres` database. */
  adminUrl: string;
  /** The data directory in use: `dataDir`, or where it was relocated for the postgres OS user. */
  dataDir: string;
  group: ProcessGroup;
  stop(): Promise<void>;
};

export type EmbeddedPostgresFailure = { ok: false; reason: string };

/** Where the platform package of `embedded-postgres` keeps `initdb` and `postgres`. */
export function embeddedPostgresBinDir(
  resolve: (id: string) => string = require.resolve,
): string | undefined {
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  try {
    // The package's only export is dist/index.js, which computes paths relative to itself: do the same.
    const entry = resolve(`@embedded-postgres/${os}-${process.arch}`);
    return join(dirname(entry), '..', 'native', 'bin');
  } catch {
    return undefined;
  }
}

function runToCompletion(
  command: string,
  args: string[],
  user: OsUser | undefined,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LC_ALL: 'C' },
      ...(user ?? {}),
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', (error) => resolve({ code: 127, output: error.message }));
    child.once('close', (code) => resolve({ code, output }));
  });
}

async function initialise(
  binDir: string,
  options: EmbeddedPostgresOptions,
  user: OsUser | undefined,
): Promise<EmbeddedPostgresFailure | undefined> {
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  if (user) chownSync(options.dataDir, user.uid, user.gid);
  // initdb reads the superuser password from a file; the file lives only for the duration of initdb.
  const passwordFile = join(tmpdir(), `gatehouse-pg-${randomBytes(6).toString('hex')}`);
  writeFileSync(passwordFile, `${options.superuserPassword}\n`, { mode: 0o600 });
  if (user) chownSync(passwordFile, user.uid, user.gid);
  try {
    const result = await runToCompletion(
      join(binDir, 'initdb'),
      [
        `--pgdata=${options.dataDir}`,
        '--username=postgres',
        `--pwfile=${passwordFile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        '--locale=C',
      ],
      user,
    );
    if (result.code === 0) return undefined;
    // A half-initialised directory would make every later run fail: remove it so the next run starts clean.
    rmSync(options.dataDir, { recursive: true, force: true });
    const lastLine = result.output.trim().split('\n').pop() ?? '';
    return { ok: false, reason: `initdb failed (exit ${String(result.code)}): ${lastLine}` };
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

async function waitUntilAccepting(
  adminUrl: string,
  group: ProcessGroup,
  timeoutMs: number,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!group.hasExited() && Date.now() < deadline) {
    const client = new Client({ connectionString: adminUrl, connectionTimeoutMillis: 1_000 });
    try {
      await client.connect();
      await client.query('select 1');
      return true;
    } catch {
      // Still starting (or recovering); try again shortly.
    } finally {
      await client.end().catch(() => undefined);
    }
    await Promise.race([new Promise((resolve) => setTimeout(resolve, 200)), group.exited]);
  }
  return false;
}

/** The version of the binaries in `binDir` (from the platform package's package.json), or 'unknown'. */
function binariesVersion(binDir: string): string {
  try {
    const manifest = JSON.parse(readFileSync(join(binDir, '..', '..', 'package.json'), 'utf8')) as {
      version?: unknown;
    };
    return typeof manifest.version === 'string' ? manifest.version : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Initialises `dataDir` on first use, then runs postgres on 127.0.0.1:`port` (TCP only) until stopped. */
export async function startEmbeddedPostgres(
  requested: EmbeddedPostgresOptions,
): Promise<EmbeddedPostgres | EmbeddedPostgresFailure> {
  const packagedBinDir = requested.binDir ?? embeddedPostgresBinDir();
  if (!packagedBinDir || !existsSync(join(packagedBinDir, 'postgres'))) {
    return {
      ok: false,
      reason: `no embedded PostgreSQL binaries for ${process.platform}-${process.arch} (run npm install)`,
    };
  }
  const user = postgresOsUser();
  if (user === 'missing') {
    return {
      ok: false,
      reason:
        'running as root and there is no `postgres` OS user to run the embedded PostgreSQL as (create one: useradd --system postgres; or run as a regular user)',
    };
  }
  const placement = placeEmbeddedPostgres({
    binDir: packagedBinDir,
    dataDir: requested.dataDir,
    user,
    version: binariesVersion(packagedBinDir),
    ...(requested.stagingRoot ? { stagingRoot: requested.stagingRoot } : {}),
  });
  for (const note of placement.notes) requested.write(`${requested.prefix} ${note}\n`);
  const binDir = placement.binDir;
  const options = { ...requested, dataDir: placement.dataDir };
  if (!existsSync(join(options.dataDir, 'PG_VERSION'))) {
    options.write(`${options.prefix} initialising a new cluster in ${options.dataDir}\n`);
    const failure = await initialise(binDir, options, user);
    if (failure) return failure;
  }
  const group = startProcessGroup({
    name: 'postgres',
    command: join(binDir, 'postgres'),
    // No unix socket: its default directory may not exist or be writable here, and we only connect over TCP.
    args: [
      '-D',
      options.dataDir,
      '-p',
      String(options.port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
    ],
    env: { ...process.env, LC_ALL: 'C' },
    cwd: options.dataDir,
    prefix: options.prefix,
    write: options.write,
    ...(user ?? {}),
  });
  const adminUrl = `postgresql://postgres:${encodeURIComponent(options.superuserPassword)}@127.0.0.1:${options.port}/postgres`;
  // SIGINT to the postmaster alone is PostgreSQL's "fast shutdown": it ends the backends itself.
  const stop = (): Promise<void> => group.stop({ signal: 'SIGINT', leaderOnly: true, graceMs: 20_000 });
  options.onSpawn?.(stop);
  if (!(await waitUntilAccepting(adminUrl, group, 60_000))) {
    await stop();
    return { ok: false, reason: 'the embedded PostgreSQL did not start (see the [postgres] lines above)' };
  }
  return { adminUrl, dataDir: options.dataDir, group, stop };
}
