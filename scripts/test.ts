// `npm test`: provides what the integration tests need the way `npm start` does, then runs jest with it.
// PostgreSQL from TEST_DATABASE_URL, else the local server, else an embedded one; Redis from TEST_REDIS_URL,
// else the local one, else `redis-server` from PATH; Chromium from CHROMIUM_PATH, else the system's, else
// Debian's installed with apt (as root). One line per service says which was used; what this run started it
// stops; a service that cannot be had is one line naming the command that installs it, and nothing runs.
// Arguments are passed to jest (`npm test -- path/to/file`).
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { provideChromium, type ProvidedChromium } from './start/chromium.provider';
import { displayUrl } from './start/database.preparer';
import { provideRedis, type ProvidedRedis } from './start/redis.provider';
import { findRepositoryRoot } from './start/repository-root';
import { StartFailure } from './start/start-failure';
import { provideTestDatabase, type ProvidedTestDatabase } from './start/test-database.provider';

const PREFIX = '[test]';
const say = (message: string): void => {
  process.stdout.write(`${PREFIX} ${message}\n`);
};

/** Stops of what this run started, in start order; stopped in reverse. */
const started: { name: string; stop: () => Promise<void> }[] = [];
let stopping: Promise<void> | undefined;

function stopStarted(): Promise<void> {
  stopping ??= (async () => {
    for (const item of [...started].reverse()) {
      await item.stop().catch(() => say(`could not stop ${item.name} cleanly`));
    }
  })();
  return stopping;
}

function describeDatabase(database: ProvidedTestDatabase): string {
  const where = displayUrl(database.adminUrl);
  switch (database.source) {
    case 'TEST_DATABASE_URL':
      return `${where} (from TEST_DATABASE_URL)`;
    case 'local':
      return `${where} (local PostgreSQL)`;
    case 'embedded':
      return `${where} (embedded PostgreSQL started for this run${database.note ? `; ${database.note}` : ''})`;
  }
}

function describeRedis(redis: ProvidedRedis): string {
  const where = displayUrl(redis.url);
  switch (redis.source) {
    case 'REDIS_URL':
      return `${where} (from TEST_REDIS_URL)`;
    case 'local':
      return `${where} (local Redis)`;
    case 'started':
      return `${where} (redis-server started for this run)`;
  }
}

/**
 * Tests on the machine's own Redis use its logical database 15, so the BullMQ queues, caches and logs of a
 * `npm start` running beside them (database 0) never meet theirs: that worker took the tests' catalog-refresh jobs
 * and answered them from its own API. Pub/sub crosses databases; revocation announcements name their ledger
 * (decision 0120) and the event fan-out checks positions, so those never mix either.
 */
const TEST_REDIS_DATABASE = '15';

function testDatabaseOf(redis: ProvidedRedis): string {
  if (redis.source !== 'local') return redis.url;
  const url = new URL(redis.url);
  url.pathname = `/${TEST_REDIS_DATABASE}`;
  return url.toString();
}

function describeChromium(chromium: ProvidedChromium): string {
  switch (chromium.source) {
    case 'CHROMIUM_PATH':
      return `${chromium.path} (from CHROMIUM_PATH)`;
    case 'system':
      return `${chromium.path} (system)`;
    case 'installed':
      return `${chromium.path} (installed now from Debian's packages)`;
  }
}

/** Jest's own output is the report; the services' logs are kept back and shown only when a start fails. */
function heldBack(): { write: (line: string) => void; flush: () => void } {
  const lines: string[] = [];
  return {
    write: (line) => {
      if (lines.length < 200) lines.push(line);
    },
    flush: () => {
      for (const line of lines) process.stdout.write(line);
    },
  };
}

function runJest(root: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'node_modules', 'jest', 'bin', 'jest.js'), ...args], {
      cwd: root,
      env,
      stdio: 'inherit',
    });
    child.once('error', (error) => {
      say(`could not run jest: ${error.message}`);
      resolve(1);
    });
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function run(): Promise<number> {
  const root = findRepositoryRoot(__dirname);
  mkdirSync(join(root, '.gatehouse'), { recursive: true, mode: 0o755 });
  const env = process.env;

  const postgresLog = heldBack();
  const database = await provideTestDatabase({
    env,
    prefix: '[postgres]',
    write: postgresLog.write,
    onSpawn: (stop) => started.push({ name: 'postgres', stop }),
  }).catch((error: unknown) => {
    postgresLog.flush();
    throw error;
  });
  say(`PostgreSQL: ${describeDatabase(database)}`);

  const redisLog = heldBack();
  const redis = await provideRedis({
    env: { PATH: env['PATH'], REDIS_URL: env['TEST_REDIS_URL'] },
    root,
    prefix: '[redis]',
    write: redisLog.write,
    onSpawn: (stop) => started.push({ name: 'redis', stop }),
  }).catch((error: unknown) => {
    redisLog.flush();
    throw error;
  });
  const testRedisUrl = testDatabaseOf(redis);
  say(`Redis: ${describeRedis({ ...redis, url: testRedisUrl })}`);

  const chromium = await provideChromium({ env, prefix: PREFIX, write: (line) => process.stdout.write(line) });
  say(`Chromium: ${describeChromium(chromium)}`);

  return runJest(root, process.argv.slice(2), {
    ...env,
    TEST_DATABASE_URL: database.adminUrl,
    TEST_REDIS_URL: testRedisUrl,
    CHROMIUM_PATH: chromium.path,
    ...(database.rolePasswords
      ? {
          TEST_DATABASE_OWNER_PASSWORD: database.rolePasswords.owner,
          TEST_DATABASE_APP_PASSWORD: database.rolePasswords.app,
        }
      : {}),
  });
}

// Ctrl-C reaches jest too (same process group); we only make sure our services go once it has stopped.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    void stopStarted().then(() => process.exit(130));
  });
}

run()
  .then(async (code) => {
    await stopStarted();
    process.exit(code);
  })
  .catch(async (error: unknown) => {
    say(error instanceof StartFailure ? error.message : `failed: ${error instanceof Error ? error.message : String(error)}`);
    await stopStarted();
    process.exit(1);
  });
