import { randomUUID } from 'node:crypto';
import { accessSync, constants, existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { catalogRefreshQueueOf } from '@gatehouse/contracts';
import { closeRedis, createRedisConnection } from '@gatehouse/coordination';
import { createDatabase, type Database } from '@gatehouse/db';
import { connectAdmitted } from '@gatehouse/mcp-client';
import { createLogger, parseConfig } from '@gatehouse/platform';
import {
  createApiSteps,
  createTestDatabase,
  createTestTenant,
  createTestWorkspace,
  testApiEnv,
  testNamespaces,
  testRedisUrl,
  TEST_DATABASE_TIMEOUT_MS,
  type ApiSteps,
  type TestDatabase,
  type TestTenant,
} from '@gatehouse/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { CatalogRefreshProducer } from '../catalog-refresh-queue/catalog-refresh-producer';
import { createMember, mintTestToken, mintWorkerTestToken } from '../commands/testing/surfaces-harness';
import { apiConfigSchema } from '../config/api.config';
import { createApiApp } from '../create-api-app';

// The stdio environment escape at the API's two moments, through the real API (createApiApp, real Postgres and
// Redis): a tenant's definition runs only a command its HostPolicy and the pool's ceiling allow, yet sets env
// that configures what that command starts (npm copies `npm_config_node_options` into NODE_OPTIONS; Python
// imports a module PYTHONWARNINGS names, and antigravity runs $BROWSER). Each such server is approved as a
// reviewer would; then admission.check must say it is not admissible and name the key, leases.issue must refuse
// it naming the key, approving it must enqueue no catalog-refresh job (a worker would spawn it), and nothing
// runs: where a lease is issued all the same, this spec does what a worker does with it (connectAdmitted), and
// the payload's canary must still not exist. A server with an allowed key is admitted, leased and enqueued.

jest.setTimeout(120_000);

const NODE = process.execPath;
const SEARCH_PATH = [dirname(NODE), '/usr/local/bin', '/usr/bin', '/bin'].join(delimiter);

/** A program on SEARCH_PATH, by absolute path (HostPolicy and the ceiling compare exact strings). */
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
  throw new Error(`${name} is not on ${SEARCH_PATH}`);
}

/** npx running a package installed in the child's directory (no registry): the reported command's shape. */
const NPX = [onSearchPath('npx'), '--offline', '-y', 'gh-escape-server'];
const PYTHON = [onSearchPath('python3'), '-c', 'pass'];
const NODE_E = [NODE, '-e', 'void 0'];
const JAVA = [onSearchPath('java'), '-version'];
const TRUE = [onSearchPath('true')];
const COMMANDS = [NPX, PYTHON, NODE_E, JAVA, TRUE];

/** The pool's root: every child's cwd and HOME, and where every canary would appear. */
let root: string;
const canary = (serverName: string): string => join(root, `canary-${serverName}`);

/** Node code that creates a canary, as a data: URL for `--import` (no spaces: NODE_OPTIONS splits on them). */
const importWriting = (path: string): string =>
  `--import=data:text/javascript,import('node:fs').then(f=>f.writeFileSync('${path}','ran'))`;

interface Escape {
  readonly serverName: string;
  readonly argv: readonly string[];
  readonly env: () => Record<string, string>;
}

const ESCAPES: readonly Escape[] = [
  {
    serverName: 'npm-node-options',
    argv: NPX,
    env: () => ({ npm_config_node_options: importWriting(canary('npm-node-options')) }),
  },
  {
    serverName: 'npm-node-options-upper',
    argv: NPX,
    env: () => ({ NPM_CONFIG_NODE_OPTIONS: importWriting(canary('npm-node-options-upper')) }),
  },
  {
    serverName: 'npm-home',
    argv: NPX,
    env: () => ({ HOME: join(root, 'home') }),
  },
  {
    serverName: 'python-antigravity',
    argv: PYTHON,
    env: () => ({
      PYTHONWARNINGS: 'all:0:antigravity.x:0:0',
      // webbrowser splits BROWSER on ':' (a list of browsers): the shell line holds none.
      BROWSER: `/bin/sh -c '> ${canary('python-antigravity')}' #%s`,
    }),
  },
  {
    serverName: 'node-options',
    argv: NODE_E,
    env: () => ({ NODE_OPTIONS: importWriting(canary('node-options')) }),
  },
  {
    serverName: 'node-v8-coverage',
    argv: NODE_E,
    env: () => ({ NODE_V8_COVERAGE: canary('node-v8-coverage') }),
  },
  {
    serverName: 'jdk-java-options',
    argv: JAVA,
    env: () => ({ JDK_JAVA_OPTIONS: `-Xlog:gc:file=${canary('jdk-java-options')}` }),
  },
  {
    serverName: 'ld-preload',
    argv: TRUE,
    env: () => ({ LD_PRELOAD: join(root, 'hook.so') }),
  },
];

/** Sets an allowed key only (in the default allowlist): what an ordinary server looks like. */
const CLEAN = { serverName: 'clean', argv: NODE_E, env: { API_KEY: 'not-a-real-key' } };

function definition(argv: readonly string[], env: Record<string, string>) {
  const [command, ...args] = argv;
  return { type: 'stdio', command, args, env };
}

/** The files the payloads need in the pool's root: the local package npx runs, and an `.npmrc` in a HOME. */
async function prepareRoot(dir: string): Promise<void> {
  const pkg = join(dir, 'node_modules', 'gh-escape-server');
  await mkdir(pkg, { recursive: true });
  await writeFile(
    join(pkg, 'package.json'),
    JSON.stringify({ name: 'gh-escape-server', version: '1.0.0', bin: { 'gh-escape-server': 'server.cjs' } }),
  );
  await writeFile(join(pkg, 'server.cjs'), '#!/usr/bin/env node\n');
  await chmod(join(pkg, 'server.cjs'), 0o755);
  await mkdir(join(dir, 'node_modules', '.bin'));
  await symlink('../gh-escape-server/server.cjs', join(dir, 'node_modules', '.bin', 'gh-escape-server'));
  await writeFile(join(dir, '.npmrc'), 'update-notifier=false\n');
  await mkdir(join(dir, 'home'));
  const payload = join(dir, 'home', 'payload.cjs');
  await writeFile(payload, `require('node:fs').writeFileSync('${canary('npm-home')}', 'ran');\n`);
  await writeFile(join(dir, 'home', '.npmrc'), `node-options=--require=${payload}\nupdate-notifier=false\n`);
}

const namespaces = testNamespaces();
let testDb: TestDatabase;
let db: Database;
let api: NestFastifyApplication;
let acme: TestTenant;
let workspaceId: string;
let producerRedis: Redis;
let localQueue: Queue;
const tokens = { admin: '', approver: '', worker: '' };
let steps: ApiSteps<keyof typeof tokens>;

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gh-env-escape-api-')));
  await prepareRoot(root);
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 2 });
  acme = await createTestTenant(db, { slug: `acme-${randomUUID().slice(0, 8)}` });
  const admin = await createMember(db, acme, 'admin');
  const approver = await createMember(db, acme, 'approver');
  workspaceId = (await createTestWorkspace(db, acme.id)).id;
  tokens.admin = (await mintTestToken(db, acme, admin, { kind: 'user' })).secret;
  tokens.approver = (await mintTestToken(db, acme, approver, { kind: 'user' })).secret;
  tokens.worker = await mintWorkerTestToken(db, acme, admin, { pool: 'local', scopes: ['leases:write'] });
  const parsed = parseConfig(
    apiConfigSchema,
    testApiEnv(testDb.appUrl, {
      ...namespaces,
      CATALOG_SWEEP_EVERY_MS: '3600000',
      // No `childEnvKeys`: the pool's allowlist is the default one.
      WORKER_POOLS: JSON.stringify({
        local: { tenants: [acme.slug], stdio: true, commandCeiling: COMMANDS, allowedRoots: [root] },
      }),
    }),
  );
  if (!parsed.ok) throw new Error(parsed.message);
  api = await createApiApp(parsed.config, {
    logger: createLogger({ name: 'env-escape-test', level: 'silent' }),
  });
  steps = createApiSteps({
    api,
    tokens,
    workspaceId,
    admin: 'admin',
    approver: 'approver',
    worker: 'worker',
    discovery: { clientName: 'env-escape-test', searchPath: SEARCH_PATH },
  });
  producerRedis = createRedisConnection({ url: testRedisUrl(), name: 'env-escape-test', purpose: 'bullmq' });
  localQueue = new Queue(catalogRefreshQueueOf('local'), {
    connection: producerRedis,
    prefix: namespaces.QUEUE_PREFIX,
  });
  await steps.putHostPolicy(COMMANDS);
  await steps.defineServers(
    'admin',
    'managed',
    Object.fromEntries([
      ...ESCAPES.map((escape) => [escape.serverName, definition(escape.argv, escape.env())]),
      [CLEAN.serverName, definition(CLEAN.argv, CLEAN.env)],
    ]),
    'env-escape',
  );
  for (const serverName of [...ESCAPES.map((escape) => escape.serverName), CLEAN.serverName])
    await steps.approve(serverName);
  // The catalog-refresh jobs the approvals enqueued (after their commits, detached from the requests).
  await api.get(CatalogRefreshProducer).settled();
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await localQueue?.obliterate({ force: true });
  await localQueue?.close();
  if (producerRedis) await closeRedis(producerRedis);
  await api?.close();
  await db?.close();
  await testDb?.drop();
  await rm(root, { recursive: true, force: true });
}, TEST_DATABASE_TIMEOUT_MS);

const keysOf = (escape: Escape): string[] => Object.keys(escape.env());

/** Whichever key the refusal names must be one the definition sets, and it must be named. */
function expectNamesAKey(raw: string, escape: Escape): void {
  expect(raw).toContain('env_key_not_allowed');
  expect(keysOf(escape).filter((key) => raw.includes(key))).not.toEqual([]);
}

async function jobServerNames(): Promise<string[]> {
  const jobs = await localQueue.getJobs(['waiting', 'active', 'delayed', 'prioritized']);
  return jobs.map((job) => (job.data as { serverName: string }).serverName);
}

describe('an approved stdio server whose env configures its allowed command', () => {
  it('control: a server setting only an allowed key is admissible, leased and enqueued for discovery', async () => {
    const checked = await steps.rest(
      'admin',
      'GET',
      `/v1/workspaces/${workspaceId}/admission-check?serverName=${CLEAN.serverName}`,
    );
    expect(checked).toMatchObject({ status: 200, body: { admissible: true } });
    const leased = await steps.rest('worker', 'POST', '/v1/leases', {
      workspaceId,
      serverName: CLEAN.serverName,
    });
    expect(leased.status).toBe(201);
    await steps.rest('worker', 'POST', `/v1/leases/${leased.body.id as string}/release`);
    expect(await jobServerNames()).toContain(CLEAN.serverName);
  });

  describe.each(ESCAPES)('$serverName', (escape) => {
    it('admission.check: not admissible, naming env_key_not_allowed and the key', async () => {
      const checked = await steps.rest(
        'admin',
        'GET',
        `/v1/workspaces/${workspaceId}/admission-check?serverName=${escape.serverName}`,
      );
      expect(checked.status).toBe(200);
      expect(checked.body).toMatchObject({
        found: true,
        activation: { state: 'approved' },
        admissible: false,
      });
      expectNamesAKey(JSON.stringify(checked.body), escape);
    });

    it('leases.issue: refused naming env_key_not_allowed and the key; nothing runs', async () => {
      const leased = await steps.rest('worker', 'POST', '/v1/leases', {
        workspaceId,
        serverName: escape.serverName,
      });
      if (leased.status === 201) {
        // What a worker does with a lease: spawn it. (Only a broken check gets here; the canary then shows it.)
        const connected = await connectAdmitted((leased.body.transport as { transport: unknown }).transport, {
          serverName: escape.serverName,
          clientInfo: { name: 'env-escape-test', version: '0.0.0' },
          defaultStartupTimeoutMs: 20_000,
          searchPath: SEARCH_PATH,
          canSwitchUser: false,
          closeGraceMs: 200,
        });
        if (connected.ok) await connected.session.close();
        await steps.rest('worker', 'POST', `/v1/leases/${leased.body.id as string}/release`);
      }
      expect({ canaryCreated: existsSync(canary(escape.serverName)) }).toEqual({ canaryCreated: false });
      expect(leased.status).toBe(403);
      expect(leased.body).toMatchObject({ code: 'stdio_refused', pool: 'local' });
      expectNamesAKey(JSON.stringify(leased.body), escape);
    });

    it('catalog refresh: approving it enqueued no discovery job, and asking for one is refused', async () => {
      expect(await jobServerNames()).not.toContain(escape.serverName);
      const asked = await steps.rest('admin', 'POST', `/v1/workspaces/${workspaceId}/catalog/refresh`, {
        serverName: escape.serverName,
      });
      expect(asked).toMatchObject({
        status: 409,
        body: { code: 'refresh_unroutable', reason: 'no_pool_allows' },
      });
      expect(existsSync(canary(escape.serverName))).toBe(false);
    });
  });
});
