import { randomBytes, randomUUID } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { catalogRefreshQueueOf, type CatalogRefreshPayloadV2 } from '@gatehouse/contracts';
import { closeRedis, createRedisConnection } from '@gatehouse/coordination';
import { createDatabase, type Database } from '@gatehouse/db';
import { createLogger, parseConfig } from '@gatehouse/platform';
import {
  createTestDatabase,
  createTestTenant,
  createTestWorkspace,
  testRedisUrl,
  TEST_DATABASE_TIMEOUT_MS,
  type TestDatabase,
  type TestTenant,
} from '@gatehouse/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Queue, QueueEvents, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
// The worker's peer is the real API (leases, snapshots): a test reaching for its real peer is the one place an app
// imports another.
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
import type { CatalogRefreshOutcome } from '../catalog-refresh/catalog-refresh-processor.js';
import { workerConfigSchema } from '../config/worker.config.js';
import { createWorkerApp, type WorkerApp } from '../create-worker-app.js';

// QueueWorkersHost under load and at shutdown ("concurrency per worker configurable; graceful
// shutdown"). Real API, Postgres and Redis; in-process worker apps; stdio servers (gated-listing-server
// fixture) whose listing waits on this test's gate, so "inside discovery" is an event the test receives,
// never a sleep. - WORKER_CONCURRENCY=N: N jobs are inside discovery together (each waits until all N have
// entered), the N+1st   is still waiting in the queue, and it runs once one of the N is let go.
// - Shutdown drains a job that finishes within half of SHUTDOWN_GRACE_MS (completed), and abandons one that
// does   not: its lease is released, its child's process group is gone, the job fails JobAbandonedError with
// attempts   left, and another worker retries it to completion.

jest.setTimeout(120_000);

const NODE = process.execPath;
const GATED = join(__dirname, 'test-support/gated-listing-server.fixture.cjs');
const CHILD_PATH = `${dirname(NODE)}:/usr/bin:/bin`;
const POOL = 'local';
const SERVERS = ['one', 'two', 'three'] as const;
type ServerName = (typeof SERVERS)[number];
const silent = createLogger({ name: 'queue-workers-test', level: 'silent' });

/** A stdio server inside its listing, waiting on the gate. */
type Entry = { name: ServerName; pid: number; socket: Socket };

/** The test's side of the fixture's gate: who is inside discovery, and letting each one finish. */
class Gate extends EventEmitter {
  readonly inside = new Map<ServerName, Entry>();
  readonly entries: Entry[] = [];
  maxInside = 0;
  private server: Server | undefined;

  async listen(): Promise<number> {
    this.server = createServer((socket) => {
      socket.setEncoding('utf8');
      socket.once('data', (line: string) => {
        const { name, pid } = JSON.parse(line) as { name: ServerName; pid: number };
        const entry = { name, pid, socket };
        this.inside.set(name, entry);
        this.entries.push(entry);
        this.maxInside = Math.max(this.maxInside, this.inside.size);
        socket.once('close', () => this.inside.delete(name));
        this.emit('entered', entry);
      });
    });
    await new Promise<void>((done) => this.server?.listen(0, '127.0.0.1', done));
    return (this.server.address() as AddressInfo).port;
  }

  /** Resolves once `count` listings have entered since the gate opened (counting those already in). */
  async entered(count: number): Promise<Entry[]> {
    while (this.entries.length < count) await once(this, 'entered');
    return this.entries.slice(0, count);
  }

  release(entry: Entry): void {
    entry.socket.write('go\n');
  }

  async close(): Promise<void> {
    for (const { socket } of this.inside.values()) socket.destroy();
    await new Promise<void>((done) => (this.server ? this.server.close(() => done()) : done()));
  }
}

let testDb: TestDatabase;
let db: Database;
let api: NestFastifyApplication;
let apiUrl: string;
let acme: TestTenant;
let workspaceId: string;
let root: string;
const gate = new Gate();
const tokens = { admin: '', approver: '', worker: '' };
const fingerprints = new Map<ServerName, string>();

async function rest(who: keyof typeof tokens, method: 'POST' | 'PUT', url: string, payload: unknown) {
  const response = await api.inject({
    method,
    url,
    headers: { authorization: `Bearer ${tokens[who]}`, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
  if (response.statusCode >= 300)
    throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return JSON.parse(response.body || 'null') as Record<string, unknown>;
}

async function approve(serverName: ServerName): Promise<string> {
  const opened = await rest('admin', 'POST', `/v1/workspaces/${workspaceId}/approval-requests`, {
    serverName,
    view: 'workspace',
  });
  const identity = opened.identity as { key: string; definitionFingerprint: string };
  await rest('approver', 'POST', `/v1/approval-requests/${opened.id as string}/decision`, {
    decision: 'approve',
    seenFingerprint: identity.definitionFingerprint,
    seenIdentityKey: identity.key,
  });
  return identity.definitionFingerprint;
}

function payload(serverName: ServerName): CatalogRefreshPayloadV2 {
  return {
    v: 2,
    tenantId: acme.id,
    workspaceId,
    serverName,
    definitionFingerprint: fingerprints.get(serverName) ?? '',
    principalUserId: null,
    pool: POOL,
    reason: 'manual',
    requestedAt: new Date().toISOString(),
  };
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

const leaseOf = (leaseId: string) =>
  db.withTenant(acme.id, (tx) => tx.lease.findUnique({ where: { id: leaseId } }));
const leasesOf = (serverName: ServerName) =>
  db.withTenant(acme.id, (tx) =>
    tx.lease.findMany({ where: { workspaceId, serverName }, orderBy: { issuedAt: 'asc' } }),
  );

/** One worker deployment per describe: its own queue prefix, so nothing else's jobs reach it. */
function deployment() {
  const prefix = `gh-test-${randomBytes(6).toString('hex')}`;
  const apps: WorkerApp[] = [];
  let producer: Redis;
  let queue: Queue;
  let events: QueueEvents;
  return {
    get queue() {
      return queue;
    },
    get events() {
      return events;
    },
    async open() {
      producer = createRedisConnection({
        url: testRedisUrl(),
        name: 'queue-workers-test',
        purpose: 'bullmq',
      });
      queue = new Queue(catalogRefreshQueueOf(POOL), { connection: producer, prefix });
      events = new QueueEvents(catalogRefreshQueueOf(POOL), { connection: { url: testRedisUrl() }, prefix });
      await events.waitUntilReady();
    },
    async startWorker(env: Record<string, string>): Promise<WorkerApp> {
      const parsed = parseConfig(workerConfigSchema, {
        LOG_LEVEL: 'silent',
        REDIS_URL: testRedisUrl(),
        API_URL: apiUrl,
        QUEUE_PREFIX: prefix,
        WORKER_TOKEN: tokens.worker,
        WORKER_POOL: POOL,
        CHILD_PATH,
        CHILD_USER: 'self',
        CHILD_CLOSE_GRACE_MS: '300',
        ...env,
      });
      if (!parsed.ok) throw new Error(parsed.message);
      const app = await createWorkerApp(parsed.config, { logger: silent });
      apps.push(app);
      return app;
    },
    async close() {
      for (const entry of gate.inside.values()) gate.release(entry);
      await Promise.all(apps.map((app) => app.close()));
      await events?.close();
      await queue?.obliterate({ force: true });
      await queue?.close();
      if (producer) await closeRedis(producer);
    },
  };
}

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gh-14-queue-workers-')));
  const gatePort = await gate.listen();
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 2 });
  acme = await createTestTenant(db, { slug: `acme-${randomUUID().slice(0, 8)}` });
  const admin = await createMember(db, acme, 'admin');
  const approver = await createMember(db, acme, 'approver');
  workspaceId = (await createTestWorkspace(db, acme.id)).id;
  tokens.admin = (await mintTestToken(db, acme, admin, { kind: 'user' })).secret;
  tokens.approver = (await mintTestToken(db, acme, approver, { kind: 'user' })).secret;
  tokens.worker = await mintWorkerTestToken(db, acme, admin, { pool: POOL });
  const parsed = parseConfig(apiConfigSchema, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: testDb.appUrl,
    REDIS_URL: testRedisUrl(),
    GATEHOUSE_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    GATEHOUSE_ACTIVE_KEY_ID: 'k1',
    WORKER_POOLS: JSON.stringify({
      [POOL]: { tenants: [acme.slug], stdio: true, commandCeiling: [[NODE, GATED]], allowedRoots: [root] },
    }),
  });
  if (!parsed.ok) throw new Error(parsed.message);
  api = await createApiApp(parsed.config, { logger: silent });
  await api.listen({ host: '127.0.0.1', port: 0 });
  apiUrl = await api.getUrl();
  await rest('admin', 'PUT', '/v1/host-policy', {
    stdioCommands: [[NODE, GATED]],
    headerHelpers: [],
    privateCidrs: [],
    traceContextOrigins: [],
    fourEyes: false,
  });
  await rest('admin', 'PUT', '/v1/definition-sources', {
    tier: 'managed',
    name: 'gated',
    document: {
      mcpServers: Object.fromEntries(
        SERVERS.map((name) => [
          name,
          { type: 'stdio', command: NODE, args: [GATED, String(gatePort), name] },
        ]),
      ),
    },
  });
  for (const name of SERVERS) fingerprints.set(name, await approve(name));
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await gate.close();
  await api?.close();
  await db?.close();
  await testDb?.drop();
  await rm(root, { recursive: true, force: true });
}, TEST_DATABASE_TIMEOUT_MS);

beforeEach(() => {
  gate.entries.length = 0;
  gate.maxInside = 0;
});

describe('WORKER_CONCURRENCY', () => {
  const deploy = deployment();
  beforeAll(() => deploy.open());
  afterAll(() => deploy.close());

  it('runs N jobs at once (each waits for all N to be inside discovery) and keeps the N+1st waiting', async () => {
    // Enqueued before the worker starts: a worker allowed more than 2 would take all 3 at its first fetch.
    const jobs: Job[] = [];
    for (const name of SERVERS)
      jobs.push(await deploy.queue.add('refresh', payload(name), { jobId: `c-${name}` }));
    await deploy.startWorker({ WORKER_CONCURRENCY: '2' });

    // With concurrency 1 this never resolves: the first listing is held until a second one has entered.
    const firstTwo = await gate.entered(2);
    expect(await deploy.queue.getJobCounts('active', 'waiting')).toEqual({ active: 2, waiting: 1 });
    expect(gate.inside.size).toBe(2);

    for (const entry of firstTwo) gate.release(entry);
    const [, , third] = await gate.entered(3);
    if (third === undefined) throw new Error('no third entry');
    expect(new Set(gate.entries.map((entry) => entry.name))).toEqual(new Set(SERVERS));
    gate.release(third);

    const outcomes = await Promise.all(jobs.map((job) => job.waitUntilFinished(deploy.events, 60_000)));
    for (const outcome of outcomes as CatalogRefreshOutcome[])
      expect(outcome).toMatchObject({ outcome: 'stored' });
    expect(gate.maxInside).toBe(2);
  });
});

describe('graceful shutdown with a job in flight', () => {
  const deploy = deployment();
  beforeAll(() => deploy.open());
  afterAll(() => deploy.close());

  it('drains a job that finishes within half of SHUTDOWN_GRACE_MS: it completes, then the worker closes', async () => {
    const worker = await deploy.startWorker({ WORKER_CONCURRENCY: '1', SHUTDOWN_GRACE_MS: '60000' });
    const job = await deploy.queue.add('refresh', payload('one'), { jobId: `drain-${randomUUID()}` });
    const [entry] = await gate.entered(1);
    if (entry === undefined) throw new Error('no entry');

    let closed = false;
    const closing = worker.close().then(() => {
      closed = true;
    });
    // The shutdown has begun with the job inside discovery: it must wait for it, not abandon it.
    expect(closed).toBe(false);
    gate.release(entry);
    await closing;

    expect(await job.getState()).toBe('completed');
    const finished = await deploy.queue.getJob(job.id ?? '');
    expect(finished?.returnvalue).toMatchObject({ outcome: 'stored' });
    expect(finished?.attemptsMade).toBe(1);
  });

  it('abandons a job that does not: lease released, child group gone, job retried by another worker', async () => {
    const leavingWorker = await deploy.startWorker({ WORKER_CONCURRENCY: '1', SHUTDOWN_GRACE_MS: '1000' });
    const job = await deploy.queue.add('refresh', payload('two'), {
      jobId: `abandon-${randomUUID()}`,
      attempts: 3,
    });
    const [entry] = await gate.entered(1);
    if (entry === undefined) throw new Error('no entry');
    expect(groupAlive(entry.pid)).toBe(true);
    const childGone = once(entry.socket, 'close');
    // The one live lease of the server: the job's (the concurrency case's are released).
    const live = (await leasesOf('two')).filter((lease) => lease.releasedAt === null);
    expect(live).toHaveLength(1);
    const [leaseBefore] = live;

    // Never released: the drain (500 ms) runs out, the lease is dropped, the connection and its child go.
    await leavingWorker.close();
    await childGone;
    expect(groupAlive(entry.pid)).toBe(false);

    const abandoned = await deploy.queue.getJob(job.id ?? '');
    expect(abandoned?.failedReason).toBe('abandoned at shutdown');
    expect(abandoned?.attemptsMade).toBe(1);
    expect(await abandoned?.getState()).toBe('waiting');
    const abandonedLease = await leaseOf(leaseBefore?.id ?? '');
    expect(abandonedLease?.releasedAt).not.toBeNull();

    await deploy.startWorker({ WORKER_CONCURRENCY: '1' });
    const [, retried] = await gate.entered(2);
    if (retried === undefined) throw new Error('no retry entry');
    expect(retried.name).toBe('two');
    expect(retried.pid).not.toBe(entry.pid);
    gate.release(retried);

    const outcome = (await job.waitUntilFinished(deploy.events, 60_000)) as CatalogRefreshOutcome;
    expect(outcome).toMatchObject({ outcome: 'stored' });
    if (outcome.outcome !== 'stored') throw new Error('not stored');
    expect(outcome.leaseId).not.toBe(leaseBefore?.id);
    expect(await job.getState()).toBe('completed');
    expect((await deploy.queue.getJob(job.id ?? ''))?.attemptsMade).toBe(2);
  });
});
