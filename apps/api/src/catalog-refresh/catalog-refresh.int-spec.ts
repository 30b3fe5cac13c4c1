import { randomUUID } from 'node:crypto';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Client } from 'pg';
import {
  ApiQueueName,
  catalogRefreshJobKey,
  catalogRefreshQueueOf,
  type CatalogRefreshPayloadV2,
} from '@gatehouse/contracts';
import { closeRedis, createRedisConnection } from '@gatehouse/coordination';
import { createDatabase, type Database } from '@gatehouse/db';
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
import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
// The producer's consumer is the real worker (createWorkerApp, its catalog-refresh processor): a test reaching
// for its real peer is the one place an app imports another.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { workerConfigSchema } from '../../../worker/src/config/worker.config.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createWorkerApp, type WorkerApp } from '../../../worker/src/create-worker-app.js';
import { createMember, mintTestToken, mintWorkerTestToken } from '../commands/testing/surfaces-harness';
import { apiConfigSchema, type ApiConfig } from '../config/api.config';
import { createApiApp } from '../create-api-app';
import { CatalogRefreshProducer } from '../catalog-refresh-queue/catalog-refresh-producer';
import { StaleCatalogsSweep } from './stale-catalogs-sweep';

// The API as the producer of catalog refresh jobs (decision 0076), end to end with real Postgres, Redis, the real
// worker processor (createWorkerApp, in-process) and @modelcontextprotocol/server-everything over stdio. The
// operator opens two pools to the tenant: `aaa` (first by name, no stdio) and `local` (stdio, exactly
// server-everything). Approving the server enqueues one job on `catalog-refresh.local` after the decision
// commits; further triggers collapse into it; the worker of `local` discovers and submits; the snapshot exists.
// A stdio server no open pool may run is enqueued nowhere, and that is audited.

jest.setTimeout(120_000);

const ROOT_DIR = resolve(__dirname, '../../../..');
const EVERYTHING = join(ROOT_DIR, 'node_modules/.bin/mcp-server-everything');
const NODE = process.execPath;
const CHILD_PATH = `${dirname(NODE)}:/usr/bin:/bin`;
const silent = createLogger({ name: 'catalog-refresh-producer-test', level: 'silent' });
/** This file's own queue and revocation namespaces; its worker takes the same. */
const namespaces = testNamespaces();
const PREFIX = namespaces.QUEUE_PREFIX;

let testDb: TestDatabase;
let db: Database;
let api: NestFastifyApplication;
let apiUrl: string;
let apiConfig: ApiConfig;
let acme: TestTenant;
let workspaceId: string;
let root: string;
let producerRedis: Redis;
const queues: Record<'local' | 'aaa', Queue> = {} as Record<'local' | 'aaa', Queue>;
const tokens = { admin: '', approver: '', member: '', worker: '' };
let steps: ApiSteps<keyof typeof tokens>;

/** Opens a review of the server in the workspace view and approves what it shows; returns the fingerprint. */
const approve = async (serverName: string): Promise<string> => (await steps.approve(serverName)).fingerprint;

/** Waits for the enqueues the API started after its commits (they run detached from the request). */
const settled = () => api.get(CatalogRefreshProducer).settled();

async function jobsOf(pool: 'local' | 'aaa') {
  return queues[pool].getJobs(['waiting', 'active', 'delayed', 'prioritized']);
}

/** Read as the database superuser: what is stored, whatever the API's catalog read does with it. */
async function snapshotServers(): Promise<{ server_name: string; tools: string[] }[]> {
  const owner = new Client({ connectionString: testDb.adminUrl });
  await owner.connect();
  try {
    const result = await owner.query<{
      server_name: string;
      document: { servers: { tools: { name: string }[] }[] };
    }>('SELECT server_name, document FROM catalog_snapshots WHERE workspace_id = $1', [workspaceId]);
    return result.rows.map((row) => ({
      server_name: row.server_name,
      tools: row.document.servers[0]?.tools.map((tool) => tool.name) ?? [],
    }));
  } finally {
    await owner.end();
  }
}

async function auditActions(action: string) {
  return db.withTenant(acme.id, (tx) =>
    tx.auditEvent.findMany({ where: { action }, orderBy: { seq: 'asc' } }),
  );
}

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gh-14c-producer-')));
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 2 });
  acme = await createTestTenant(db, { slug: `acme-${randomUUID().slice(0, 8)}` });
  const admin = await createMember(db, acme, 'admin');
  const approver = await createMember(db, acme, 'approver');
  const member = await createMember(db, acme, 'member');
  workspaceId = (await createTestWorkspace(db, acme.id)).id;
  tokens.admin = (await mintTestToken(db, acme, admin, { kind: 'user' })).secret;
  tokens.approver = (await mintTestToken(db, acme, approver, { kind: 'user' })).secret;
  tokens.member = (await mintTestToken(db, acme, member, { kind: 'user' })).secret;
  tokens.worker = await mintWorkerTestToken(db, acme, admin, {
    pool: 'local',
    scopes: ['leases:write', 'snapshots:write', 'revocations:read', 'catalog:refresh'],
  });
  const parsed = parseConfig(
    apiConfigSchema,
    testApiEnv(testDb.appUrl, {
      ...namespaces,
      // The sweep's scheduler runs (its ticks an hour apart); the tests call the sweep's tick themselves.
      CATALOG_SWEEP_EVERY_MS: '3600000',
      WORKER_POOLS: JSON.stringify({
        aaa: { tenants: '*' },
        local: { tenants: [acme.slug], stdio: true, commandCeiling: [[EVERYTHING]], allowedRoots: [root] },
      }),
    }),
  );
  if (!parsed.ok) throw new Error(parsed.message);
  apiConfig = parsed.config;
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
    discovery: { clientName: 'catalog-refresh-producer-test', searchPath: CHILD_PATH },
  });
  await steps.putHostPolicy([[EVERYTHING, 'stdio']]);
  await steps.defineServers(
    'admin',
    'managed',
    {
      everything: { type: 'stdio', command: EVERYTHING, args: ['stdio'] },
      // Stdio too, but an argv the tenant never allowed: no open pool may run it.
      elsewhere: { type: 'stdio', command: EVERYTHING, args: ['sse'] },
    },
    'producer',
  );
  producerRedis = createRedisConnection({ url: testRedisUrl(), name: 'producer-test', purpose: 'bullmq' });
  queues.local = new Queue(catalogRefreshQueueOf('local'), { connection: producerRedis, prefix: PREFIX });
  queues.aaa = new Queue(catalogRefreshQueueOf('aaa'), { connection: producerRedis, prefix: PREFIX });
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  for (const queue of Object.values(queues)) {
    await queue.obliterate({ force: true });
    await queue.close();
  }
  if (producerRedis) await closeRedis(producerRedis);
  await api?.close();
  await db?.close();
  await testDb?.drop();
  await rm(root, { recursive: true, force: true });
}, TEST_DATABASE_TIMEOUT_MS);

describe('the API produces catalog refresh jobs', () => {
  let fingerprint: string;
  let worker: WorkerApp | undefined;

  afterAll(async () => {
    await worker?.close();
  });

  it('enqueues one job on the pool that may run the server once the approval commits, and nothing elsewhere', async () => {
    fingerprint = await approve('everything');
    await settled();
    const jobs = await jobsOf('local');
    expect(jobs).toHaveLength(1);
    const expected: Partial<CatalogRefreshPayloadV2> = {
      v: 2,
      tenantId: acme.id,
      workspaceId,
      serverName: 'everything',
      definitionFingerprint: fingerprint,
      principalUserId: null,
      pool: 'local',
      reason: 'approval_decided',
    };
    expect(jobs[0]?.data).toMatchObject(expected);
    expect(jobs[0]?.id).toBe(
      catalogRefreshJobKey({
        workspaceId,
        serverName: 'everything',
        definitionFingerprint: fingerprint,
        principalUserId: null,
      }),
    );
    // `aaa` comes first by name, but its ceiling forbids stdio.
    expect(await jobsOf('aaa')).toHaveLength(0);
  });

  it('collapses further triggers for the same catalog into the waiting job', async () => {
    for (let i = 0; i < 2; i += 1) {
      const asked = await steps.expectOk(
        steps.rest('admin', 'POST', `/v1/workspaces/${workspaceId}/catalog/refresh`, {
          serverName: 'everything',
        }),
      );
      expect(asked).toEqual({
        outcome: 'collapsed',
        workspaceId,
        serverName: 'everything',
        principalUserId: null,
        definitionFingerprint: fingerprint,
        pool: 'local',
        reason: 'manual',
      });
    }
    // A tenant variable changes no fingerprint here: the server stays approved, and its refresh collapses too.
    await steps.expectOk(
      steps.rest('admin', 'PUT', '/v1/definition-variables/UNUSED_TOKEN', {
        scope: 'tenant',
        value: 'rotated',
      }),
    );
    await settled();
    // The sweep sees the approved server without a snapshot and asks again: still the same one job.
    const sweep = await api.get(StaleCatalogsSweep).run();
    expect(sweep).toMatchObject({ due: 1, enqueued: 0 });
    expect(await jobsOf('local')).toHaveLength(1);
    expect(await auditActions('catalog.refresh.requested')).toHaveLength(2);
  });

  it("is consumed by the pool's worker, which discovers the server and submits its snapshot", async () => {
    const events = new QueueEvents(catalogRefreshQueueOf('local'), {
      connection: { url: testRedisUrl() },
      prefix: PREFIX,
    });
    await events.waitUntilReady();
    try {
      const [job] = await jobsOf('local');
      if (job === undefined) throw new Error('no job waits');
      const config = parseConfig(workerConfigSchema, {
        LOG_LEVEL: 'silent',
        REDIS_URL: testRedisUrl(),
        API_URL: apiUrl,
        QUEUE_PREFIX: PREFIX,
        REDIS_KEY_PREFIX: namespaces.REDIS_KEY_PREFIX,
        WORKER_TOKEN: tokens.worker,
        WORKER_POOL: 'local',
        CHILD_PATH,
        CHILD_USER: 'self',
        CHILD_CLOSE_GRACE_MS: '500',
      });
      if (!config.ok) throw new Error(config.message);
      const finished = job.waitUntilFinished(events);
      worker = await createWorkerApp(config.config, { logger: silent });
      await expect(finished).resolves.toMatchObject({ outcome: 'stored', complete: true });
    } finally {
      await events.close();
    }
    const [snapshot] = await snapshotServers();
    expect(snapshot?.server_name).toBe('everything');
    expect(snapshot?.tools).toContain('mcp__everything__echo');
    // Fresh now: the sweep leaves it alone (nothing else is approved yet).
    expect(await api.get(StaleCatalogsSweep).run()).toMatchObject({ due: 0, enqueued: 0 });
  });

  it('enqueues again once a variable set, an overlay cleared or trust given commits, the server still approved', async () => {
    const events = new QueueEvents(catalogRefreshQueueOf('local'), {
      connection: { url: testRedisUrl() },
      prefix: PREFIX,
    });
    await events.waitUntilReady();
    const jobId = catalogRefreshJobKey({
      workspaceId,
      serverName: 'everything',
      definitionFingerprint: fingerprint,
      principalUserId: null,
    });
    // The job of this key was consumed and removed: each trigger below adds it anew (BullMQ's `added` event),
    // and the next trigger waits for it to finish (else it would collapse into it and add nothing).
    const cycle = async (trigger: () => Promise<unknown>) => {
      const seen = { added: false };
      const finished = new Promise<void>((done) => {
        const onAdded = (event: { jobId: string }) => {
          if (event.jobId === jobId) seen.added = true;
        };
        const onFinished = (event: { jobId: string }) => {
          if (event.jobId !== jobId || !seen.added) return;
          events.off('added', onAdded);
          events.off('completed', onFinished);
          events.off('failed', onFinished);
          done();
        };
        events.on('added', onAdded);
        events.on('completed', onFinished);
        events.on('failed', onFinished);
      });
      await trigger();
      await finished;
      await settled();
    };
    try {
      await cycle(() =>
        steps.expectOk(
          steps.rest('admin', 'PUT', '/v1/definition-variables/ROTATED_KEY', {
            scope: 'tenant',
            value: 'v2',
          }),
        ),
      );
      const overlay = `/v1/workspaces/${workspaceId}/disabled-servers/everything`;
      await steps.expectOk(steps.rest('admin', 'PUT', overlay, { scope: 'workspace' }));
      await settled();
      await cycle(() => steps.expectOk(steps.rest('admin', 'DELETE', `${overlay}?scope=workspace`)));
      await steps.expectOk(
        steps.rest('admin', 'PUT', `/v1/workspaces/${workspaceId}/trust`, { trusted: false }),
      );
      await settled();
      await cycle(() =>
        steps.expectOk(steps.rest('admin', 'PUT', `/v1/workspaces/${workspaceId}/trust`, { trusted: true })),
      );
    } finally {
      await events.close();
    }
  });

  it('lets a lease holder report a list_changed for the lease it holds, and nothing else', async () => {
    const lease = await steps.expectOk(
      steps.rest('worker', 'POST', '/v1/leases', { workspaceId, serverName: 'everything' }),
      201,
    );
    const leaseId = lease.id as string;
    const reported = await steps.rest('worker', 'POST', `/v1/workspaces/${workspaceId}/catalog/refresh`, {
      serverName: 'everything',
      leaseId,
    });
    expect(reported.status).toBe(200);
    expect(reported.body).toMatchObject({ reason: 'list_changed', pool: 'local', serverName: 'everything' });
    const otherServer = await steps.rest('worker', 'POST', `/v1/workspaces/${workspaceId}/catalog/refresh`, {
      serverName: 'elsewhere',
      leaseId,
    });
    expect({ status: otherServer.status, code: otherServer.body.code }).toEqual({
      status: 404,
      code: 'not_found',
    });
    const noLease = await steps.rest('worker', 'POST', `/v1/workspaces/${workspaceId}/catalog/refresh`, {
      serverName: 'everything',
    });
    expect(noLease.status).toBe(400);
    await steps.expectOk(steps.rest('worker', 'POST', `/v1/leases/${leaseId}/release`));
    const released = await steps.rest('worker', 'POST', `/v1/workspaces/${workspaceId}/catalog/refresh`, {
      serverName: 'everything',
      leaseId,
    });
    expect({ status: released.status, code: released.body.code }).toEqual({
      status: 409,
      code: 'lease_ended',
    });
    const audit = await auditActions('catalog.refresh.requested');
    expect(audit.at(-1)).toMatchObject({ actorType: 'token', outcome: 'success' });
  });
});

describe('a stdio server no open pool may run', () => {
  it('is enqueued on no queue; the reason is audited and answered', async () => {
    const before = { local: (await jobsOf('local')).length, aaa: (await jobsOf('aaa')).length };
    await approve('elsewhere');
    await settled();
    expect((await jobsOf('local')).filter((job) => job.data.serverName === 'elsewhere')).toEqual([]);
    expect((await jobsOf('aaa')).length).toBe(before.aaa);
    const [audited] = await auditActions('catalog.refresh.unroutable');
    expect(audited).toMatchObject({ outcome: 'failure' });
    expect(audited?.data).toMatchObject({
      serverName: 'elsewhere',
      trigger: 'approval_decided',
      reason: 'no_pool_allows',
      refusals: ['aaa:stdio_not_allowed_on_pool', 'local:command_not_allowed'],
    });
    const asked = await steps.rest('admin', 'POST', `/v1/workspaces/${workspaceId}/catalog/refresh`, {
      serverName: 'elsewhere',
    });
    expect(asked).toMatchObject({
      status: 409,
      body: { code: 'refresh_unroutable', reason: 'no_pool_allows' },
    });
  });

  it('refuses a person another member’s view unless an owner or admin asks, and a server not approved', async () => {
    const notApproved = await steps.rest('admin', 'POST', `/v1/workspaces/${workspaceId}/catalog/refresh`, {
      serverName: 'nosuchserver',
    });
    expect(notApproved.body.code).toBe('not_found');
    const member = await steps.rest('member', 'POST', `/v1/workspaces/${workspaceId}/catalog/refresh`, {
      serverName: 'everything',
    });
    // Members hold no catalog:refresh (owners, admins and approvers do).
    expect({ status: member.status, code: member.body.code }).toEqual({
      status: 403,
      code: 'forbidden_scope',
    });
  });
});

describe('the sweep scheduler', () => {
  it('is one BullMQ job scheduler however many API processes upsert it', async () => {
    const sweepQueue = new Queue(ApiQueueName.CatalogSweep, { connection: producerRedis, prefix: PREFIX });
    // A second API process of the same deployment upserts the same scheduler.
    const second = await createApiApp(apiConfig, { logger: silent });
    try {
      const schedulers = await sweepQueue.getJobSchedulers();
      expect(schedulers).toEqual([expect.objectContaining({ key: 'catalog-sweep', every: 3_600_000 })]);
    } finally {
      await second.close();
      await sweepQueue.obliterate({ force: true });
      await sweepQueue.close();
    }
  });
});
