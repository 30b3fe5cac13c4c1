import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, realpath, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Client } from 'pg';
import {
  catalogRefreshJobKey,
  catalogRefreshQueueOf,
  type CatalogRefreshPayloadV2,
} from '@gatehouse/contracts';
import { closeRedis, createRedisConnection } from '@gatehouse/coordination';
import { createDatabase, type Database } from '@gatehouse/db';
import { HeldLeases } from '@gatehouse/lease-holder';
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
  type TestUser,
  upstreamWordsOf,
  VERSION_REFUSING_SERVER,
} from '@gatehouse/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
// The processor's peer is the real API (leases, snapshots): a test reaching for its real peer is the one place an
// app imports another.
// eslint-disable-next-line @nx/enforce-module-boundaries
import {
  createMember,
  mintTestToken,
  mintWorkerTestToken,
} from '../../../api/src/commands/testing/surfaces-harness.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { apiConfigSchema } from '../../../api/src/config/api.config.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createApiApp } from '../../../api/src/create-api-app.js';
import { workerConfigSchema, type WorkerConfig } from '../config/worker.config.js';
import { createWorkerApp, type WorkerApp } from '../create-worker-app.js';
import type { CatalogRefreshOutcome } from './catalog-refresh-processor.js';

// Catalog discovery end to end (decision 0069): the real API (createApiApp on a loopback port,
// real Postgres and Redis), the worker app consuming its pool's queue, and
// @modelcontextprotocol/server-everything over stdio on a pool whose ceiling allows exactly it. Approve the
// server, enqueue the job the API would, and the worker leases, discovers, posts the snapshot for its lease
// and releases it; the stored document names the tools mcp__everything__*. The stdio child lives in its own
// process group, which is gone once the job ends.

jest.setTimeout(120_000);

const ROOT_DIR = resolve(__dirname, '../../../..');
const EVERYTHING = join(ROOT_DIR, 'node_modules/.bin/mcp-server-everything');
const NODE = process.execPath;
const SILENT = join(__dirname, 'test-support/silent-listing-server.fixture.cjs');
const REFUSING = VERSION_REFUSING_SERVER;
/** A server that exits before it answers: a transient failure (the child exited) on every attempt. */
const EXITING = [NODE, '-e', 'process.exit(3)'];
/** The refusing server's marker: its error message carries upstreamWordsOf(it), which nothing of ours repeats. */
const UPSTREAM_MARKER = `upstream-words-${randomBytes(6).toString('hex')}`;
const CHILD_PATH = `${dirname(NODE)}:/usr/bin:/bin`;
const POOL = 'local';
const silent = createLogger({ name: 'catalog-refresh-test', level: 'silent' });

let testDb: TestDatabase;
let db: Database;
let api: NestFastifyApplication;
let apiUrl: string;
let acme: TestTenant;
let admin: TestUser;
let workspaceId: string;
let root: string;
const tokens = { admin: '', approver: '', worker: '' };
/** This file's own queue and revocation namespaces (the API's; its workers subscribe under REDIS_KEY_PREFIX). */
const namespaces = testNamespaces();
let steps: ApiSteps<keyof typeof tokens>;

/** Opens a review of the server in the workspace view and approves what it shows. */
const approve = (serverName: string) => steps.approve(serverName);

function workerConfig(env: Record<string, string>): WorkerConfig {
  const parsed = parseConfig(workerConfigSchema, { LOG_LEVEL: 'silent', ...env });
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.config;
}

type SnapshotRow = {
  lease_id: string;
  server_name: string;
  definition_fingerprint: string;
  complete: boolean;
  document: { servers: { tools: { name: string }[] }[] };
};

/** Read as the database superuser: what is stored, whatever the API's catalog read does with it. */
async function snapshotRows(): Promise<SnapshotRow[]> {
  const owner = new Client({ connectionString: testDb.adminUrl });
  await owner.connect();
  try {
    const result = await owner.query<SnapshotRow>(
      'SELECT lease_id, server_name, definition_fingerprint, complete, document FROM catalog_snapshots WHERE workspace_id = $1',
      [workspaceId],
    );
    return result.rows;
  } finally {
    await owner.end();
  }
}

async function leaseRow(leaseId: string) {
  return db.withTenant(acme.id, (tx) => tx.lease.findUnique({ where: { id: leaseId } }));
}

/** Live processes whose command line contains `needle`, with their parent and process group. */
async function processesRunning(needle: string): Promise<{ pid: number; ppid: number; pgid: number }[]> {
  const found: { pid: number; ppid: number; pgid: number }[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (!cmdline.includes(needle)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid pgrp ...: the fields after the parenthesised command name.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z') continue;
    found.push({ pid: Number(entry), ppid: Number(fields[1]), pgid: Number(fields[2]) });
  }
  return found;
}

/**
 * Waits for a condition on processes, which no event of ours announces (another process's children), checking
 * every 50 ms for at most `bound` ms.
 */
async function eventually<T>(check: () => Promise<T | undefined>, bound = 20_000): Promise<T> {
  for (let waited = 0; waited <= bound; waited += 50) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((done) => setTimeout(done, 50));
  }
  throw new Error('condition not reached');
}

/** Whether any process of the group is left. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gh-14e-worker-')));
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 2 });
  acme = await createTestTenant(db, { slug: `acme-${randomUUID().slice(0, 8)}` });
  admin = await createMember(db, acme, 'admin');
  const approver = await createMember(db, acme, 'approver');
  workspaceId = (await createTestWorkspace(db, acme.id)).id;
  tokens.admin = (await mintTestToken(db, acme, admin, { kind: 'user' })).secret;
  tokens.approver = (await mintTestToken(db, acme, approver, { kind: 'user' })).secret;
  tokens.worker = await mintWorkerTestToken(db, acme, admin, { pool: POOL });
  const parsed = parseConfig(
    apiConfigSchema,
    testApiEnv(testDb.appUrl, {
      ...namespaces,
      WORKER_POOLS: JSON.stringify({
        [POOL]: {
          tenants: [acme.slug],
          stdio: true,
          commandCeiling: [[EVERYTHING], [NODE, SILENT], [NODE, REFUSING, UPSTREAM_MARKER], EXITING],
          allowedRoots: [root],
        },
      }),
    }),
  );
  if (!parsed.ok) throw new Error(parsed.message);
  api = await createApiApp(parsed.config, { logger: silent });
  await api.listen({ host: '127.0.0.1', port: 0 });
  apiUrl = await api.getUrl();
  steps = createApiSteps({
    api,
    tokens,
    workspaceId,
    admin: 'admin',
    approver: 'approver',
    worker: 'worker',
    discovery: { clientName: 'catalog-refresh-test', searchPath: CHILD_PATH },
  });
  await steps.putHostPolicy([
    [EVERYTHING, 'stdio'],
    [NODE, SILENT],
    [NODE, REFUSING, UPSTREAM_MARKER],
    EXITING,
  ]);
  await steps.defineServers(
    'admin',
    'managed',
    {
      everything: { type: 'stdio', command: EVERYTHING, args: ['stdio'] },
      silent: { type: 'stdio', command: NODE, args: [SILENT] },
      refusing: { type: 'stdio', command: NODE, args: [REFUSING, UPSTREAM_MARKER] },
      exiting: { type: 'stdio', command: NODE, args: EXITING.slice(1) },
    },
    'worker',
  );
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await api?.close();
  await db?.close();
  await testDb?.drop();
  await rm(root, { recursive: true, force: true });
}, TEST_DATABASE_TIMEOUT_MS);

describe('catalog refresh: approve -> enqueue -> the worker discovers -> the snapshot is stored', () => {
  const prefix = `gh-test-${randomBytes(6).toString('hex')}`;
  let worker: WorkerApp;
  let producer: Redis;
  let queue: Queue;
  let events: QueueEvents;

  beforeAll(async () => {
    worker = await createWorkerApp(
      workerConfig({
        REDIS_URL: testRedisUrl(),
        API_URL: apiUrl,
        QUEUE_PREFIX: prefix,
        REDIS_KEY_PREFIX: namespaces.REDIS_KEY_PREFIX,
        WORKER_TOKEN: tokens.worker,
        WORKER_POOL: POOL,
        WORKER_CONCURRENCY: '2',
        CHILD_PATH,
        CHILD_USER: 'self',
        CHILD_CLOSE_GRACE_MS: '500',
      }),
      { logger: silent },
    );
    producer = createRedisConnection({
      url: testRedisUrl(),
      name: 'catalog-refresh-test',
      purpose: 'bullmq',
    });
    queue = new Queue(catalogRefreshQueueOf(POOL), { connection: producer, prefix });
    events = new QueueEvents(catalogRefreshQueueOf(POOL), { connection: { url: testRedisUrl() }, prefix });
    await events.waitUntilReady();
  });

  afterAll(async () => {
    await worker?.close();
    await events?.close();
    await queue?.obliterate({ force: true });
    await queue?.close();
    if (producer) await closeRedis(producer);
  });

  function payload(fingerprint: string, serverName = 'everything'): CatalogRefreshPayloadV2 {
    return {
      v: 2,
      tenantId: acme.id,
      workspaceId,
      serverName,
      definitionFingerprint: fingerprint,
      principalUserId: null,
      pool: POOL,
      reason: 'approval_decided',
      requestedAt: new Date().toISOString(),
    };
  }

  it('stores a complete one-server snapshot of mcp__everything__* for the lease, releases it, leaves no child', async () => {
    const { fingerprint } = await approve('everything');
    const job = await queue.add('refresh', payload(fingerprint), {
      jobId: catalogRefreshJobKey(payload(fingerprint)),
    });
    const outcome = (await job.waitUntilFinished(events)) as CatalogRefreshOutcome;
    expect(outcome).toMatchObject({ outcome: 'stored', complete: true });
    if (outcome.outcome !== 'stored') throw new Error('not stored');
    expect(outcome.tools).toBeGreaterThan(5);

    const rows = await snapshotRows();
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row).toMatchObject({
      lease_id: outcome.leaseId,
      server_name: 'everything',
      definition_fingerprint: fingerprint,
      complete: true,
    });
    const names = row?.document.servers[0]?.tools.map((t) => t.name) ?? [];
    expect(names).toContain('mcp__everything__echo');
    for (const name of names) expect(name).toMatch(/^mcp__everything__[A-Za-z0-9_-]+$/);

    // The lease it posted for is released, and the worker holds nothing.
    expect((await leaseRow(outcome.leaseId))?.releasedAt).not.toBeNull();
    expect(worker.context.get(HeldLeases).size).toBe(0);
    // The connection was closed before the job ended: no server-everything child of this process is left.
    expect((await processesRunning('server-everything')).filter((p) => p.ppid === process.pid)).toEqual([]);
  });

  it('is safe to run twice: a rerun replaces the snapshot with one for its own lease', async () => {
    const fingerprint = (await snapshotRows())[0]?.definition_fingerprint ?? '';
    const again = await queue.add('refresh', payload(fingerprint), { jobId: `rerun-${randomUUID()}` });
    const outcome = (await again.waitUntilFinished(events)) as CatalogRefreshOutcome;
    expect(outcome).toMatchObject({ outcome: 'stored' });
    const rows = (await snapshotRows()).filter((r) => r.server_name === 'everything');
    expect(rows).toHaveLength(1);
    if (outcome.outcome === 'stored') expect(rows[0]?.lease_id).toBe(outcome.leaseId);
  });

  it('completes a job whose lease the API refuses with the refusal code, without posting', async () => {
    const refused = { ...payload('sha256:none'), serverName: 'nosuchserver' };
    const job = await queue.add('refresh', refused, { jobId: catalogRefreshJobKey(refused) });
    await expect(job.waitUntilFinished(events)).resolves.toMatchObject({ outcome: 'refused', step: 'lease' });
    expect(await snapshotRows()).toHaveLength(1);
  });

  it('reports a server that refuses our protocol version for its lease: the catalog says why it is pending', async () => {
    const { fingerprint } = await approve('refusing');
    const job = await queue.add('refresh', payload(fingerprint, 'refusing'), {
      jobId: catalogRefreshJobKey(payload(fingerprint, 'refusing')),
    });
    await expect(job.waitUntilFinished(events)).resolves.toEqual({
      outcome: 'unreachable',
      failureClass: 'protocol',
      reason: 'protocol_version_refused',
      reported: true,
    });
    const catalog = (await steps.expectStatus('admin', 'GET', `/v1/workspaces/${workspaceId}/catalog`, 200))
      .body as { servers: { name: string }[] };
    const servers = catalog.servers;
    expect(servers.find((server) => server.name === 'refusing')).toMatchObject({
      state: 'pending_discovery',
      definitionFingerprint: fingerprint,
      discoveryFailure: {
        failureClass: 'protocol',
        reason: 'protocol_version_refused',
        detail: 'the server refused every protocol version we speak',
      },
    });
    // The upstream's own words went nowhere: only the two closed words crossed.
    expect(JSON.stringify(catalog)).not.toContain(upstreamWordsOf(UPSTREAM_MARKER));
    const audit = (
      await steps.expectStatus(
        'admin',
        'GET',
        '/v1/audit-events?action=catalog.discovery_failed&limit=10',
        200,
      )
    ).body;
    expect(JSON.stringify(audit)).toContain('protocol_version_refused');
    expect(JSON.stringify(audit)).not.toContain(upstreamWordsOf(UPSTREAM_MARKER));
    expect(worker.context.get(HeldLeases).size).toBe(0);
  });

  it('retries a transient failure without reporting it, and reports it once the job gives up', async () => {
    const { fingerprint } = await approve('exiting');
    // Two attempts, no backoff: the first throws for the queue to retry (nothing reported), the last reports.
    const job = await queue.add('refresh', payload(fingerprint, 'exiting'), {
      jobId: catalogRefreshJobKey(payload(fingerprint, 'exiting')),
      attempts: 2,
    });
    await expect(job.waitUntilFinished(events)).rejects.toThrow(/server unavailable/);
    const catalog = (await steps.expectStatus('admin', 'GET', `/v1/workspaces/${workspaceId}/catalog`, 200))
      .body as { servers: { name: string }[] };
    expect(catalog.servers.find((server) => server.name === 'exiting')).toMatchObject({
      state: 'pending_discovery',
      discoveryFailure: { failureClass: 'transient', reason: 'connection_failed' },
    });
    const audit = (
      await steps.expectStatus(
        'admin',
        'GET',
        '/v1/audit-events?action=catalog.discovery_failed&limit=50',
        200,
      )
    ).body as { items: { data: { serverName?: string } }[] };
    // One report for the two attempts: the first attempt's failure was retried, not reported.
    expect(audit.items.filter((item) => item.data.serverName === 'exiting')).toHaveLength(1);
  });

  it('drops the lease and closes the stdio child’s process group when its approval is revoked mid-discovery', async () => {
    const { fingerprint, approvalId } = await approve('silent');
    const job = await queue.add('refresh', payload(fingerprint, 'silent'), {
      jobId: catalogRefreshJobKey(payload(fingerprint, 'silent')),
    });
    // The child is up and the listing is waiting on it: discovery is under way.
    const child = await eventually(async () =>
      (await processesRunning(SILENT)).find((p) => p.ppid === process.pid),
    );
    expect(child.pgid).toBe(child.pid);
    await steps.expectStatus('admin', 'POST', `/v1/approvals/${approvalId}/revoke`, 200, {
      reason: 'no longer needed',
    });
    await expect(job.waitUntilFinished(events)).resolves.toEqual({ outcome: 'dropped', reason: 'revoked' });
    expect(groupAlive(child.pgid)).toBe(false);
    expect((await snapshotRows()).filter((r) => r.server_name === 'silent')).toEqual([]);
    expect(worker.context.get(HeldLeases).size).toBe(0);
  });
});

describe('catalog refresh: SIGKILL of a worker process during discovery', () => {
  // The worker as it runs in production (the build's main.js; `npm test` builds before it tests).
  const MAIN = join(ROOT_DIR, 'dist/apps/worker/src/main.js');
  const prefix = `gh-test-${randomBytes(6).toString('hex')}`;
  let producer: Redis;
  let queue: Queue;

  beforeAll(() => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run node scripts/build.mjs first`);
    producer = createRedisConnection({
      url: testRedisUrl(),
      name: 'catalog-refresh-kill',
      purpose: 'bullmq',
    });
    queue = new Queue(catalogRefreshQueueOf(POOL), { connection: producer, prefix });
  });

  afterAll(async () => {
    await queue?.obliterate({ force: true });
    await queue?.close();
    if (producer) await closeRedis(producer);
  });

  async function freePort(): Promise<number> {
    const server = createServer();
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((done) => server.close(() => done()));
    return port;
  }

  it('leaves no process of the stdio child’s group and no snapshot', async () => {
    const { fingerprint } = await approve('silent');
    const child = spawn(NODE, [MAIN], {
      cwd: ROOT_DIR,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env['PATH'] ?? '',
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        REDIS_URL: testRedisUrl(),
        API_URL: apiUrl,
        QUEUE_PREFIX: prefix,
        REDIS_KEY_PREFIX: namespaces.REDIS_KEY_PREFIX,
        WORKER_TOKEN: tokens.worker,
        WORKER_POOL: POOL,
        WORKER_PORT: String(await freePort()),
        CHILD_PATH,
        CHILD_USER: 'self',
      },
    });
    child.stderr.resume();
    try {
      let output = '';
      await new Promise<void>((done, fail) => {
        child.once('exit', (code) => fail(new Error(`worker exited early (${code})`)));
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString('utf8');
          if (output.includes('queue workers started')) done();
        });
      });
      child.removeAllListeners('exit');
      await queue.add(
        'refresh',
        { ...payload(fingerprint), serverName: 'silent' },
        { jobId: `kill-${randomUUID()}` },
      );
      const server = await eventually(async () =>
        (await processesRunning(SILENT)).find((p) => p.ppid === child.pid),
      );
      expect(server.pgid).toBe(server.pid);
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
      // Its own group, so no signal reached it: its stdin closed with the worker, and it ends with the group.
      await eventually(async () => (groupAlive(server.pgid) ? undefined : true));
      expect((await snapshotRows()).filter((r) => r.server_name === 'silent')).toEqual([]);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });

  function payload(fingerprint: string): CatalogRefreshPayloadV2 {
    return {
      v: 2,
      tenantId: acme.id,
      workspaceId,
      serverName: 'silent',
      definitionFingerprint: fingerprint,
      principalUserId: null,
      pool: POOL,
      reason: 'manual',
      requestedAt: new Date().toISOString(),
    };
  }
});
