// `npm start`: one command from a fresh clone to the four apps running against a real Postgres and Redis.
// It finds (or starts) the databases, sets up roles, migrates, seeds the demo tenant, makes a development key
// ring, builds the dashboard when needed, runs api/worker/gateway/dashboard as child process groups with
// prefixed logs, waits for their health checks and prints the URLs. Ctrl-C or SIGTERM stops everything it
// started, apps first and the databases last; if an app dies, everything stops and the exit code is 1.
import { mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { planAppLaunches, type AppLaunch } from './start/app-launch.plan';
import { dashboardBuildState } from './start/dashboard-build.check';
import { prepareDatabase, displayUrl } from './start/database.preparer';
import { provideDatabase, type ProvidedDatabase } from './start/database.provider';
import { seedDemoData } from './start/demo.seeder';
import { provisionServiceTokens } from './start/service-tokens.provisioner';
import { DEMO_STDIO_COMMAND, demoWorkerPools } from './start/demo-pool';
import { demoStdioRoot } from './start/demo-stdio-root';
import { DEMO_TENANT_SLUG } from '../prisma/seed';
import { loadOrCreateDevKeyRing } from './start/dev-key-ring';
import { keyRingMismatchWarning } from './start/key-ring-mismatch';
import { waitForHealth, type HealthWaitResult } from './start/health.waiter';
import { formatPrefix, shouldUseColor } from './start/line-prefixer';
import { loadOrCreateLocalSecrets } from './start/local-secrets';
import { isPortFree } from './start/port-probe';
import { startProcessGroup, type ProcessGroup } from './start/process-group';
import { provideRedis, type ProvidedRedis } from './start/redis.provider';
import { findRepositoryRoot } from './start/repository-root';
import { StartFailure } from './start/start-failure';

const NAMES = ['api', 'worker', 'gateway', 'dashboard', 'postgres', 'redis', 'start'] as const;
const PREFIX_WIDTH = Math.max(...NAMES.map((name) => name.length));
const color = shouldUseColor(process.stdout.isTTY === true, process.env);
const prefixes = Object.fromEntries(
  NAMES.map((name, index) => [name, formatPrefix(name, index, PREFIX_WIDTH, { color })]),
) as Record<(typeof NAMES)[number], string>;

// Apps log JSON lines at their own pace; writing each prefixed line in one call keeps lines whole.
const write = (line: string): void => {
  process.stdout.write(line);
};
const say = (message: string): void => write(`${prefixes.start} ${message}\n`);

// An app drains for up to SHUTDOWN_GRACE_MS (10 s by default) on SIGTERM; give it a little more before SIGKILL.
const APP_STOP_GRACE_MS = 15_000;
const HEALTH_TIMEOUT_MS = 120_000;

/** Everything this run started, so that any exit path can stop it in order. */
class Supervisor {
  readonly apps: ProcessGroup[] = [];
  /** A short-lived child (the dashboard build) that a signal must also stop. */
  transient: ProcessGroup | undefined;
  /** Stops for the databases we started, in start order; stopped in reverse after the apps. */
  readonly infrastructure: { name: string; stop: () => Promise<void> }[] = [];
  private stopping: Promise<void> | undefined;
  exitCode = 0;

  /** A database process we spawned; registered at spawn time so that a Ctrl-C during its startup stops it. */
  register(name: string, stop: () => Promise<void>): void {
    this.infrastructure.push({ name, stop });
    if (this.stopping) void stop();
  }

  get isStopping(): boolean {
    return this.stopping !== undefined;
  }

  stopAll(exitCode: number, reason: string): Promise<void> {
    if (this.stopping) return this.stopping;
    this.exitCode = exitCode;
    this.stopping = (async () => {
      const running = [...this.apps, ...(this.transient ? [this.transient] : [])];
      // Nothing started yet (e.g. no Redis to be found): the failure itself is the one line to print.
      if (running.length === 0 && this.infrastructure.length === 0) return;
      say(`stopping (${reason})`);
      await Promise.all(
        running.map((group) => group.stop({ signal: 'SIGTERM', graceMs: APP_STOP_GRACE_MS })),
      );
      for (const item of [...this.infrastructure].reverse()) {
        await item.stop().catch(() => say(`could not stop ${item.name} cleanly`));
      }
      say('everything stopped');
    })();
    return this.stopping;
  }

  /** A second Ctrl-C: do not wait for draining. */
  killNow(): void {
    for (const group of [...this.apps, ...(this.transient ? [this.transient] : [])]) {
      void group.stop({ signal: 'SIGKILL', graceMs: 0 });
      try {
        process.kill(-group.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
}

const supervisor = new Supervisor();

function exitAfterStop(exitCode: number, reason: string): void {
  void supervisor.stopAll(exitCode, reason).then(() => process.exit(supervisor.exitCode));
}

function installSignalHandlers(): void {
  // `npm start | head` closes our stdout early: keep supervising (and stop cleanly later) instead of crashing
  // on EPIPE with the apps still running.
  process.stdout.on('error', () => undefined);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      if (supervisor.isStopping) {
        say(`${signal} again: killing what is left`);
        supervisor.killNow();
        return;
      }
      exitAfterStop(0, signal);
    });
  }
  // If whoever ran us goes away without a signal reaching us (an npm wrapper killed hard), we are reparented:
  // stop rather than leave the apps and databases running with nobody to stop them.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent && !supervisor.isStopping) exitAfterStop(1, 'parent process exited');
  }, 1_000).unref();
}

function describeDatabase(database: ProvidedDatabase): string {
  const where = displayUrl(database.appUrl);
  switch (database.source) {
    case 'DATABASE_URL':
      return `${where} (from DATABASE_URL)`;
    case 'local':
      return `${where} (local PostgreSQL)`;
    case 'embedded':
      return `${where} (embedded PostgreSQL, data in ${database.dataDir ?? '.gatehouse/pg'})`;
  }
}

function describeRedis(redis: ProvidedRedis): string {
  const where = displayUrl(redis.url);
  switch (redis.source) {
    case 'REDIS_URL':
      return `${where} (from REDIS_URL)`;
    case 'local':
      return `${where} (local Redis)`;
    case 'started':
      return `${where} (redis-server started by npm start, no persistence)`;
  }
}

async function buildDashboardIfStale(root: string): Promise<void> {
  const state = dashboardBuildState(root);
  if (!state.stale) {
    say('dashboard build is up to date');
    return;
  }
  say(
    `building the dashboard (${state.reason === 'missing' ? 'no build yet' : 'sources changed'}); this takes a minute`,
  );
  const build = startProcessGroup({
    name: 'dashboard',
    command: join(root, 'node_modules', '.bin', 'next'),
    args: ['build', join(root, 'apps', 'dashboard')],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    cwd: root,
    prefix: prefixes.dashboard,
    write,
  });
  supervisor.transient = build;
  const status = await build.exited;
  supervisor.transient = undefined;
  if (supervisor.isStopping) return;
  if (status.code !== 0)
    throw new StartFailure('the dashboard build failed (see the [dashboard] lines above)');
}

async function assertPortsFree(launches: readonly AppLaunch[]): Promise<void> {
  for (const launch of launches) {
    if (!(await isPortFree(launch.host, launch.port))) {
      throw new StartFailure(
        `${launch.name}: port ${launch.port} on ${launch.host} is taken; stop what uses it or set ${launch.portVariable}`,
      );
    }
  }
}

async function startApps(root: string, launches: readonly AppLaunch[]): Promise<void> {
  // Each app is spawned once the apps it starts after answer their health check (the worker and the gateway
  // after the API: their revocation holders read the ledger from it, decision 0129); the others at once.
  const health = new Map<string, Promise<HealthWaitResult | { ok: false; reason: 'not_started' }>>();
  const launchAndWait = async (
    launch: AppLaunch,
  ): Promise<HealthWaitResult | { ok: false; reason: 'not_started' }> => {
    for (const before of launch.startsAfter) {
      const result = await health.get(before);
      if (result !== undefined && !result.ok) return { ok: false, reason: 'not_started' };
    }
    const group = startProcessGroup({
      name: launch.name,
      command: launch.command,
      args: launch.args,
      env: launch.env,
      cwd: root,
      prefix: prefixes[launch.name],
      write,
    });
    supervisor.apps.push(group);
    const result = await waitForHealth({
      url: launch.healthUrl,
      exited: group.exited,
      timeoutMs: HEALTH_TIMEOUT_MS,
    });
    if (result.ok) say(`${launch.name} is healthy`);
    return result;
  };
  for (const launch of launches) health.set(launch.name, launchAndWait(launch));
  const results = await Promise.all(
    launches.map(async (launch) => ({
      launch,
      ...(await (health.get(launch.name) ?? launchAndWait(launch))),
    })),
  );
  // The app that failed first, not one that was never started because of it.
  const failed =
    results.find((result) => !result.ok && result.reason !== 'not_started') ??
    results.find((result) => !result.ok);
  if (failed && !failed.ok) {
    const what =
      failed.reason === 'exited'
        ? 'exited during startup'
        : failed.reason === 'not_started'
          ? 'was not started'
          : `did not answer ${failed.launch.healthUrl} in time`;
    throw new StartFailure(`${failed.launch.name} ${what} (see the [${failed.launch.name}] lines above)`);
  }
}

async function optionalPath(baseUrl: string, path: string): Promise<boolean> {
  try {
    const response = await fetch(new URL(path, baseUrl), {
      redirect: 'manual',
      signal: AbortSignal.timeout(2_000),
    });
    await response.body?.cancel();
    return response.status < 400;
  } catch {
    return false;
  }
}

async function printSummary(
  launches: readonly AppLaunch[],
  database: ProvidedDatabase,
  redis: ProvidedRedis,
): Promise<void> {
  const byName = new Map(launches.map((launch) => [launch.name, launch]));
  const api = byName.get('api');
  const apiExtras = ['/healthz', '/readyz', '/metrics'];
  if (api && (await optionalPath(api.url, '/docs'))) apiExtras.push('/docs (OpenAPI)');
  if (api && (await optionalPath(api.url, '/graphql?query=%7B__typename%7D'))) apiExtras.push('/graphql');
  const notes: Record<string, string> = {
    dashboard: '',
    api: apiExtras.join(' '),
    gateway:
      '/mcp/w/<workspaceId> (an agent or user token as Bearer; README: the gateway) /healthz /readyz /metrics',
    worker: '/healthz /readyz /metrics',
  };
  say('Gatehouse is running:');
  for (const name of ['dashboard', 'api', 'gateway', 'worker'] as const) {
    const launch = byName.get(name);
    if (launch) say(`  ${name.padEnd(10)} ${launch.url}  ${notes[name] ?? ''}`.trimEnd());
  }
  say(`  ${'postgres'.padEnd(10)} ${describeDatabase(database)}`);
  say(`  ${'redis'.padEnd(10)} ${describeRedis(redis)}`);
  say('Press Ctrl-C to stop everything.');
}

async function run(): Promise<void> {
  const root = findRepositoryRoot(__dirname);
  const env = process.env;
  mkdirSync(join(root, '.gatehouse'), { recursive: true, mode: 0o755 });
  const secrets = loadOrCreateLocalSecrets(join(root, '.gatehouse', 'local-secrets.json'));

  // Redis first: when there is none to be had, that one line is all the user sees, before anything started.
  const redis = await provideRedis({
    env,
    root,
    prefix: prefixes.redis,
    write,
    dataDir: join(root, '.gatehouse', 'redis'),
    onSpawn: (stop) => supervisor.register('redis', stop),
  });
  const database = await provideDatabase({
    env,
    root,
    secrets,
    prefix: prefixes.postgres,
    write,
    onSpawn: (stop) => supervisor.register('postgres', stop),
  });
  if (supervisor.isStopping) return;

  const prepared = await prepareDatabase(database, join(root, 'prisma', 'migrations'));
  say(
    `database ${database.databaseName}: ${prepared.created ? 'created, ' : ''}${prepared.applied.length} migration(s) applied, ${prepared.alreadyApplied} already applied`,
  );
  let keyRing: { keys: string; activeKeyId: string } | undefined;
  const production = env['NODE_ENV'] === 'production';
  if (!env['GATEHOUSE_KEYS'] && !production) {
    const devRing = loadOrCreateDevKeyRing(join(root, '.gatehouse', 'dev-keys'));
    keyRing = { keys: devRing.keys, activeKeyId: devRing.activeKeyId };
    say(
      `${devRing.created ? 'generated a' : 'using the'} development key ring in ${relative(root, devRing.file)} (GATEHOUSE_KEYS is unset; never use it in production)`,
    );
    const mismatch = keyRingMismatchWarning(prepared, devRing, database.databaseName);
    if (mismatch !== undefined) say(mismatch);
  }
  const seedKeyRing =
    keyRing ??
    (env['GATEHOUSE_KEYS'] && env['GATEHOUSE_ACTIVE_KEY_ID']
      ? { keys: env['GATEHOUSE_KEYS'], activeKeyId: env['GATEHOUSE_ACTIVE_KEY_ID'] }
      : undefined);
  // Without pools of the operator's own, the demo's stdio server gets a pool that may run exactly it (development).
  const demoPools = !env['WORKER_POOLS'] && !production;
  const demoStdio = demoPools ? demoStdioRoot(root, env['CHILD_USER']) : null;
  const appEnv = demoStdio ? { ...env, WORKER_POOLS: demoWorkerPools(demoStdio.root) } : env;
  if (demoStdio) {
    say(`WORKER_POOLS is unset: the default pool may run the demo's ${DEMO_STDIO_COMMAND.join(' ')}`);
    if (demoStdio.note !== null) say(demoStdio.note);
  }
  const seeded = await seedDemoData(database, seedKeyRing, demoPools ? appEnv['WORKER_POOLS'] : undefined);
  for (const line of seeded) say(line);
  const serviceTokens = await provisionServiceTokens({
    database,
    env: appEnv,
    idsFile: join(root, '.gatehouse', 'service-tokens.json'),
    tenantSlug: DEMO_TENANT_SLUG,
    pool: env['WORKER_POOL'] || 'default',
  });
  for (const line of serviceTokens.lines) say(line);

  const launches = planAppLaunches({
    root,
    env: appEnv,
    databaseUrl: database.appUrl,
    redisUrl: redis.url,
    keyRing,
    serviceTokens,
  });
  await assertPortsFree(launches);
  await buildDashboardIfStale(root);
  if (supervisor.isStopping) return;
  await startApps(root, launches);
  if (supervisor.isStopping) return;
  await printSummary(launches, database, redis);

  // Running: the first app to exit takes everything down (an app that dies is a bug to see, not to hide).
  const first = await Promise.race(
    supervisor.apps.map((group) => group.exited.then((status) => ({ group, status }))),
  );
  if (supervisor.isStopping) return;
  const how = first.status.signal ? `signal ${first.status.signal}` : `code ${String(first.status.code)}`;
  say(`${first.group.name} exited (${how})`);
  exitAfterStop(1, `${first.group.name} exited`);
}

installSignalHandlers();
run().catch((error: unknown) => {
  if (supervisor.isStopping) return;
  if (error instanceof StartFailure) {
    say(error.message);
  } else {
    // Infrastructure errors (a refused connection, a failed migration): their message, not their properties.
    say(`failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  exitAfterStop(1, 'start failed');
});
