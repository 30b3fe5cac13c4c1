import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import {
  createTestDatabase,
  createTestRedisPrefix,
  testRedisUrl,
  type TestDatabase,
} from '@gatehouse/testing';
import { runProcess, startProcess, type RunningProcess } from './child-process.harness';
import { buildOnceAcrossWorkers } from './dashboard-build.harness';

// Everything the browser test drives, for real: a fresh migrated database, the built API (`node
// dist/apps/api/src/main.js`, as `npm start` and the container run it) with the dashboard as its trusted proxy,
// a tenant with an owner, a member and an approver seeded through the operator CLI, one worker pool whose
// ceiling the Host policy page shows, and two production dashboards (`next start`): one talking to that API,
// one pointed at a closed port to show the API-down states.

export const REPOSITORY_ROOT = resolve(__dirname, '..', '..', '..');

export interface Person {
  readonly email: string;
  readonly password: string;
  readonly name: string;
}

export interface DashboardStackOptions {
  /** Worker pools beside the default one (OAuth egress and catalog routing take the first, by name, that fits). */
  readonly pools?: Readonly<Record<string, unknown>>;
  /** The dashboard's GATEWAY_URL. */
  readonly gatewayUrl?: string;
}

export interface DashboardStack {
  readonly apiUrl: string;
  /** The API's REDIS_KEY_PREFIX and QUEUE_PREFIX, for a worker of the same stack. */
  readonly redisKeyPrefix: string;
  readonly queuePrefix: string;
  readonly dashboardUrl: string;
  /** A dashboard whose API_URL is a closed port. */
  readonly apiDownDashboardUrl: string;
  readonly tenant: { readonly slug: string; readonly name: string };
  readonly owner: Person;
  readonly member: Person;
  readonly approver: Person;
  /** Recent output of the processes, for a failing test's message. */
  logs(): string;
  /** A process the test started beside the stack (a worker): stopped with it, its output in `logs()`. */
  adopt(running: RunningProcess): void;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

function baseEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...extra };
}

const node = process.execPath;

async function seed(
  database: TestDatabase,
  tenant: DashboardStack['tenant'],
  people: Person[],
): Promise<void> {
  const cli = (args: string[], password?: string) =>
    runProcess({
      name: `gatehouse ${args[1] ?? ''}`,
      command: node,
      args: [join(REPOSITORY_ROOT, 'bin', 'gatehouse.cjs'), ...args],
      cwd: REPOSITORY_ROOT,
      env: baseEnv({ DATABASE_URL: database.appUrl, ...(password ? { SEED_PASSWORD: password } : {}) }),
    });
  await cli(['admin', 'create-tenant', '--slug', tenant.slug, '--name', tenant.name]);
  const roles = ['owner', 'member', 'approver'];
  for (const [index, person] of people.entries()) {
    await cli(
      [
        'admin',
        'create-user',
        '--email',
        person.email,
        '--name',
        person.name,
        '--tenant',
        tenant.slug,
        '--role',
        roles[index] ?? 'member',
        '--password-env',
        'SEED_PASSWORD',
      ],
      person.password,
    );
  }
}

async function buildDashboardIfStale(): Promise<void> {
  await buildOnceAcrossWorkers(REPOSITORY_ROOT, async () => {
    await runProcess({
      name: 'next build',
      command: join(REPOSITORY_ROOT, 'node_modules', '.bin', 'next'),
      args: ['build', join(REPOSITORY_ROOT, 'apps', 'dashboard')],
      cwd: REPOSITORY_ROOT,
      env: baseEnv({ NEXT_TELEMETRY_DISABLED: '1' }),
    });
  });
}

function startDashboard(
  name: string,
  port: number,
  apiUrl: string,
  gatewayUrl?: string,
): Promise<RunningProcess> {
  return startProcess({
    name,
    command: join(REPOSITORY_ROOT, 'node_modules', '.bin', 'next'),
    args: [
      'start',
      join(REPOSITORY_ROOT, 'apps', 'dashboard'),
      '--port',
      String(port),
      '--hostname',
      '127.0.0.1',
    ],
    cwd: REPOSITORY_ROOT,
    env: baseEnv({
      NEXT_TELEMETRY_DISABLED: '1',
      API_URL: apiUrl,
      ...(gatewayUrl ? { GATEWAY_URL: gatewayUrl } : {}),
    }),
    ready: /Ready in/,
  });
}

export async function startDashboardStack(options: DashboardStackOptions = {}): Promise<DashboardStack> {
  const suffix = randomBytes(3).toString('hex');
  const tenant = { slug: `acme-${suffix}`, name: 'Acme Robotics' };
  const password = `pw-${randomBytes(12).toString('base64url')}`;
  const owner: Person = { email: `olivia-${suffix}@acme.test`, password, name: 'Olivia Owner' };
  const member: Person = { email: `max-${suffix}@acme.test`, password, name: 'Max Member' };
  const approver: Person = { email: `ada-${suffix}@acme.test`, password, name: 'Ada Approver' };
  // The operator ceiling (WORKER_POOLS): one pool open to every tenant, running `npx -y …` and nothing else.
  const workerPools = JSON.stringify({
    ...options.pools,
    default: {
      tenants: '*',
      stdio: true,
      commandCeiling: [['npx', '-y']],
      privateRangesTenantsMayOptInto: ['10.20.0.0/16'],
    },
  });

  // The API and the CLI run from dist/: compile what changed (incremental; a no-op under `npm test`).
  await runProcess({
    name: 'build',
    command: node,
    args: [join(REPOSITORY_ROOT, 'scripts', 'build.mjs')],
    cwd: REPOSITORY_ROOT,
    env: baseEnv({}),
  });

  const processes: RunningProcess[] = [];
  let database: TestDatabase | undefined;
  const stop = async () => {
    await Promise.all(processes.map((running) => running.stop()));
    await database?.drop();
  };

  try {
    const [db] = await Promise.all([
      createTestDatabase().then(async (created) => {
        database = created;
        await seed(created, tenant, [owner, member, approver]);
        return created;
      }),
      buildDashboardIfStale(),
    ]);
    const [apiPort, dashboardPort, downPort, closedPort] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
      freePort(),
    ]);
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const redisKeyPrefix = createTestRedisPrefix();
    const queuePrefix = `gh-e2e-${suffix}`;
    const settled = await Promise.allSettled([
      startProcess({
        name: 'api',
        command: node,
        args: [join(REPOSITORY_ROOT, 'dist', 'apps', 'api', 'src', 'main.js')],
        cwd: REPOSITORY_ROOT,
        env: baseEnv({
          NODE_ENV: 'test',
          LOG_LEVEL: 'info',
          DATABASE_URL: db.appUrl,
          REDIS_URL: testRedisUrl(),
          REDIS_KEY_PREFIX: redisKeyPrefix,
          QUEUE_PREFIX: queuePrefix,
          API_HOST: '127.0.0.1',
          API_PORT: String(apiPort),
          PUBLIC_URL: apiUrl,
          // The OAuth callback hands a dashboard browser's sign-in on to the dashboard (decision 0089).
          DASHBOARD_URL: `http://127.0.0.1:${dashboardPort}`,
          // The dashboard's server is the API's trusted proxy: its X-Forwarded-For names the browser.
          TRUSTED_PROXIES: '127.0.0.1',
          WORKER_POOLS: workerPools,
        }),
        ready: /api listening/,
      }),
      startDashboard('dashboard', dashboardPort, apiUrl, options.gatewayUrl),
      startDashboard('dashboard (API down)', downPort, `http://127.0.0.1:${closedPort}`),
    ]);
    for (const result of settled) if (result.status === 'fulfilled') processes.push(result.value);
    const failed = settled.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    return {
      apiUrl,
      redisKeyPrefix,
      queuePrefix,
      dashboardUrl: `http://127.0.0.1:${dashboardPort}`,
      apiDownDashboardUrl: `http://127.0.0.1:${downPort}`,
      tenant,
      owner,
      member,
      approver,
      adopt: (running) => processes.push(running),
      logs: () =>
        processes.map((running) => `--- ${running.name}\n${running.output().slice(-3000)}`).join('\n'),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
