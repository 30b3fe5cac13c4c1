import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Client } from 'pg';
import { PROBE_FAILURE_CLASSES, probeJobKey, probeQueueOf } from '@gatehouse/contracts';
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
// The processor's peer is the real API (leases, probes.submit, the producer): a test reaching for its real peer
// is the one place an app imports another.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { CatalogRefreshProducer } from '../../../api/src/catalog-refresh-queue/catalog-refresh-producer.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { StaleCatalogsSweep } from '../../../api/src/catalog-refresh/stale-catalogs-sweep.js';
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
import { workerConfigSchema } from '../config/worker.config.js';
import { createWorkerApp, type WorkerApp } from '../create-worker-app.js';
import type { ProbeOutcome } from './probe-processor.js';

// The probe queue end to end (decision 0078): the API's sweep enqueues a probe for every approved server without a
// recent one, on `probe.<pool>`; the worker of that pool leases the server, connects (handshake), pings, closes,
// reports the connection state for its lease and releases it; the API stores it under the lease's identity. A
// server that cannot be reached is reported `failed` with the client's failure class, not retried.

jest.setTimeout(60_000);

const ROOT_DIR = resolve(__dirname, '../../../..');
const EVERYTHING = join(ROOT_DIR, 'node_modules/.bin/mcp-server-everything');
const NODE = process.execPath;
// A stdio server that exits before it answers anything.
const GONE = [NODE, '-e', 'process.exit(3)'];
const CHILD_PATH = `${dirname(NODE)}:/usr/bin:/bin`;
const POOL = 'local';
/** This file's own queue and revocation namespaces (its API's); every worker of it subscribes under the latter. */
const namespaces = testNamespaces();
const PREFIX = namespaces.QUEUE_PREFIX;
const silent = createLogger({ name: 'probe-test', level: 'silent' });

let testDb: TestDatabase;
let db: Database;
let api: NestFastifyApplication;
let acme: TestTenant;
let workspaceId: string;
let root: string;
let worker: WorkerApp;
let producerRedis: Redis;
let queue: Queue;
let events: QueueEvents;
const tokens = { admin: '', approver: '', worker: '', worker2: '' };
let steps: ApiSteps<keyof typeof tokens>;

/** Opens a review of the server in the workspace view and approves what it shows; returns the fingerprint. */
const approve = async (serverName: string): Promise<string> => (await steps.approve(serverName)).fingerprint;

type ProbeRow = {
  server_name: string;
  lease_id: string;
  state: string;
  failure_class: string | null;
  reason: string | null;
  protocol_version: string | null;
};

/** Read as the database superuser: what is stored. */
async function probeRows(): Promise<ProbeRow[]> {
  const owner = new Client({ connectionString: testDb.adminUrl });
  await owner.connect();
  try {
    const result = await owner.query<ProbeRow>(
      'SELECT server_name, lease_id, state, failure_class, reason, protocol_version FROM server_probes WHERE workspace_id = $1 ORDER BY server_name',
      [workspaceId],
    );
    return result.rows;
  } finally {
    await owner.end();
  }
}

async function workerToken(name: string): Promise<string> {
  return mintWorkerTestToken(db, acme, await createMember(db, acme, 'admin'), { pool: POOL, name });
}

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gh-14c-probe-')));
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 2 });
  acme = await createTestTenant(db, { slug: `acme-${randomUUID().slice(0, 8)}` });
  const admin = await createMember(db, acme, 'admin');
  const approver = await createMember(db, acme, 'approver');
  workspaceId = (await createTestWorkspace(db, acme.id)).id;
  tokens.admin = (await mintTestToken(db, acme, admin, { kind: 'user' })).secret;
  tokens.approver = (await mintTestToken(db, acme, approver, { kind: 'user' })).secret;
  tokens.worker = await workerToken('worker local');
  tokens.worker2 = await workerToken('worker local 2');
  const parsed = parseConfig(
    apiConfigSchema,
    testApiEnv(testDb.appUrl, {
      ...namespaces,
      WORKER_POOLS: JSON.stringify({
        [POOL]: {
          tenants: [acme.slug],
          stdio: true,
          commandCeiling: [[EVERYTHING], GONE],
          allowedRoots: [root],
        },
      }),
    }),
  );
  if (!parsed.ok) throw new Error(parsed.message);
  api = await createApiApp(parsed.config, {
    logger: createLogger({
      name: 'probe-test-api',
      level: process.env['PROBE_TEST_LOG'] === '1' ? 'warn' : 'silent',
    }),
  });
  await api.listen({ host: '127.0.0.1', port: 0 });
  steps = createApiSteps({
    api,
    tokens,
    workspaceId,
    admin: 'admin',
    approver: 'approver',
    worker: 'worker',
    discovery: { clientName: 'probe-test', searchPath: CHILD_PATH },
  });
  await steps.putHostPolicy([[EVERYTHING, 'stdio'], GONE]);
  await steps.defineServers(
    'admin',
    'managed',
    {
      everything: { type: 'stdio', command: EVERYTHING, args: ['stdio'] },
      gone: { type: 'stdio', command: GONE[0], args: GONE.slice(1) },
    },
    'probes',
  );
  const config = parseConfig(workerConfigSchema, {
    LOG_LEVEL: 'silent',
    REDIS_URL: testRedisUrl(),
    API_URL: await api.getUrl(),
    QUEUE_PREFIX: PREFIX,
    REDIS_KEY_PREFIX: namespaces.REDIS_KEY_PREFIX,
    WORKER_TOKEN: tokens.worker,
    WORKER_POOL: POOL,
    CHILD_PATH,
    CHILD_USER: 'self',
    CHILD_CLOSE_GRACE_MS: '500',
    DISCOVERY_STARTUP_TIMEOUT_MS: '10000',
  });
  if (!config.ok) throw new Error(config.message);
  producerRedis = createRedisConnection({ url: testRedisUrl(), name: 'probe-test', purpose: 'bullmq' });
  queue = new Queue(probeQueueOf(POOL), { connection: producerRedis, prefix: PREFIX });
  events = new QueueEvents(probeQueueOf(POOL), { connection: { url: testRedisUrl() }, prefix: PREFIX });
  await events.waitUntilReady();
  worker = await createWorkerApp(config.config, { logger: silent });
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await worker?.close();
  await events?.close();
  await queue?.obliterate({ force: true });
  await queue?.close();
  if (producerRedis) await closeRedis(producerRedis);
  await api?.close();
  await db?.close();
  await testDb?.drop();
  await rm(root, { recursive: true, force: true });
}, TEST_DATABASE_TIMEOUT_MS);

/** The outcome of the probe job of this server, awaited as the queue's `completed` event. */
function probeFinished(serverName: string, fingerprint: string): Promise<ProbeOutcome> {
  const jobId = probeJobKey({
    workspaceId,
    serverName,
    definitionFingerprint: fingerprint,
    principalUserId: null,
  });
  return new Promise((done, fail) => {
    const onCompleted = (event: { jobId: string; returnvalue: unknown }) => {
      if (event.jobId !== jobId) return;
      events.off('completed', onCompleted);
      done(
        (typeof event.returnvalue === 'string'
          ? JSON.parse(event.returnvalue)
          : event.returnvalue) as ProbeOutcome,
      );
    };
    const onFailed = (event: { jobId: string; failedReason: string }) => {
      if (event.jobId === jobId) fail(new Error(`probe job failed: ${event.failedReason}`));
    };
    events.on('completed', onCompleted);
    events.on('failed', onFailed);
    events.once('error', fail);
  });
}

interface LeaseAnswerGate {
  readonly url: string;
  /** Resolves once the API answered the first POST /v1/leases (the lease is committed; its answer held). */
  readonly leaseAnswered: Promise<void>;
  open(): void;
  close(): Promise<void>;
}

/**
 * An HTTP relay of the test's own in front of the API that holds the answer of the first lease until opened; with
 * `refuseRevocations` it answers every read of the revocation ledger 503 itself (the ledger unreadable).
 */
async function startLeaseAnswerGate(
  apiUrl: string,
  options: { refuseRevocations?: boolean } = {},
): Promise<LeaseAnswerGate> {
  let open!: () => void;
  const opened = new Promise<void>((done) => (open = done));
  let answered!: () => void;
  const leaseAnswered = new Promise<void>((done) => (answered = done));
  let held = false;
  const target = new URL(apiUrl);
  const server = createServer((request, response) => {
    if (options.refuseRevocations === true && request.url?.startsWith('/v1/revocations') === true) {
      request.resume();
      response.writeHead(503, { 'content-type': 'application/problem+json' });
      response.end(JSON.stringify({ status: 503, code: 'unavailable', title: 'Unavailable' }));
      return;
    }
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: request.url,
        headers: request.headers,
      },
      (answer) => {
        const gated = !held && request.method === 'POST' && request.url === '/v1/leases';
        if (gated) held = true;
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          if (gated) answered();
          void (gated ? opened : Promise.resolve()).then(() => {
            response.writeHead(answer.statusCode ?? 502, answer.headers);
            response.end(Buffer.concat(chunks));
          });
        });
      },
    );
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    leaseAnswered,
    open,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** Waits until the revocation of this approval has its ledger position (the relay sequenced it after commit). */
async function sequenced(owner: Client, approvalId: string): Promise<void> {
  for (let waited = 0; waited < 20_000; waited += 20) {
    const { rows } = await owner.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM revocation_events WHERE kind = 'approval_revoked' AND subject->>'approvalId' = $1 AND tenant_seq IS NOT NULL",
      [approvalId],
    );
    if ((rows[0]?.n ?? 0) > 0) return;
    await new Promise((done) => setTimeout(done, 20));
  }
  throw new Error('the revocation was never sequenced');
}

describe('the probe queue', () => {
  it('the sweep probes every approved server; the worker records ready, or the failure class', async () => {
    const everything = await approve('everything');
    const gone = await approve('gone');
    await api.get(CatalogRefreshProducer).settled();
    const ready = probeFinished('everything', everything);
    const failed = probeFinished('gone', gone);
    const sweep = await api.get(StaleCatalogsSweep).run();
    expect(sweep).toMatchObject({ probesDue: 2, probesEnqueued: 2 });

    await expect(ready).resolves.toMatchObject({ outcome: 'reported', state: 'ready', failureClass: null });
    const outcome = await failed;
    expect(outcome).toMatchObject({ outcome: 'reported', state: 'failed' });
    const rows = await probeRows();
    expect(rows).toEqual([
      expect.objectContaining({
        server_name: 'everything',
        state: 'ready',
        failure_class: null,
        reason: null,
      }),
      expect.objectContaining({ server_name: 'gone', state: 'failed' }),
    ]);
    expect(rows[0]?.protocol_version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(PROBE_FAILURE_CLASSES).toContain(rows[1]?.failure_class);
    expect(rows[1]?.reason).toMatch(/^[a-z][a-z0-9_]*$/);
    // Probed now: the next sweep leaves both alone.
    expect(await api.get(StaleCatalogsSweep).run()).toMatchObject({ probesDue: 0 });
  });

  it('probes.submit takes a report only for a live lease the token holds, and only a consistent one', async () => {
    const lease = await steps.expectOk(
      steps.rest('worker', 'POST', '/v1/leases', { workspaceId, serverName: 'everything' }),
      201,
    );
    const leaseId = lease.id as string;
    const ready = {
      state: 'ready',
      failureClass: null,
      reason: null,
      protocolVersion: '2025-11-25',
      serverVersion: '1',
    };
    const other = await steps.rest('worker2', 'POST', `/v1/leases/${leaseId}/probe`, ready);
    expect({ status: other.status, code: other.body.code }).toEqual({ status: 404, code: 'not_found' });
    const inconsistent = await steps.rest('worker', 'POST', `/v1/leases/${leaseId}/probe`, {
      ...ready,
      reason: 'x',
    });
    expect(inconsistent.status).toBe(400);
    const stored = await steps.rest('worker', 'POST', `/v1/leases/${leaseId}/probe`, ready);
    expect(stored).toMatchObject({
      status: 201,
      body: { leaseId, serverName: 'everything', state: 'ready' },
    });
    await steps.expectOk(steps.rest('worker', 'POST', `/v1/leases/${leaseId}/release`));
    const ended = await steps.rest('worker', 'POST', `/v1/leases/${leaseId}/probe`, ready);
    expect({ status: ended.status, code: ended.body.code }).toEqual({ status: 409, code: 'lease_ended' });
    const user = await steps.rest('admin', 'POST', `/v1/leases/${leaseId}/probe`, ready);
    expect(user.status).toBe(403);
  });

  it("drops its lease when the approval is revoked between the lease and the worker's first watch of the tenant", async () => {
    // A worker of its own on a queue prefix of its own, which has watched no tenant yet (as after a restart), and
    // reaches the API through a gate of the test's that holds the lease's answer back: the revocation commits and
    // is sequenced in the ledger before the worker has its lease, so before it can watch the tenant.
    const gate = await startLeaseAnswerGate(await api.getUrl());
    const prefix = `gh-test-${randomBytes(6).toString('hex')}`;
    const config = parseConfig(workerConfigSchema, {
      LOG_LEVEL: 'silent',
      REDIS_URL: testRedisUrl(),
      API_URL: gate.url,
      QUEUE_PREFIX: prefix,
      REDIS_KEY_PREFIX: namespaces.REDIS_KEY_PREFIX,
      WORKER_TOKEN: tokens.worker2,
      WORKER_POOL: POOL,
      CHILD_PATH,
      CHILD_USER: 'self',
      CHILD_CLOSE_GRACE_MS: '500',
      DISCOVERY_STARTUP_TIMEOUT_MS: '10000',
    });
    if (!config.ok) throw new Error(config.message);
    const freshQueue = new Queue(probeQueueOf(POOL), { connection: producerRedis, prefix });
    const freshEvents = new QueueEvents(probeQueueOf(POOL), { connection: { url: testRedisUrl() }, prefix });
    await freshEvents.waitUntilReady();
    const fresh = await createWorkerApp(config.config, { logger: silent });
    const owner = new Client({ connectionString: testDb.adminUrl });
    await owner.connect();
    try {
      const [approval] = (
        await owner.query<{ id: string; definition_fingerprint: string }>(
          "SELECT id, definition_fingerprint FROM approvals WHERE workspace_id = $1 AND server_name = 'everything' AND revoked_at IS NULL",
          [workspaceId],
        )
      ).rows;
      if (approval === undefined) throw new Error('no live approval of everything');
      const payload = {
        v: 1,
        tenantId: acme.id,
        workspaceId,
        serverName: 'everything',
        definitionFingerprint: approval.definition_fingerprint,
        principalUserId: null,
        pool: POOL,
        reason: 'manual',
        requestedAt: new Date().toISOString(),
      } as const;
      const jobId = probeJobKey(payload);
      const finished = new Promise<ProbeOutcome>((done, fail) => {
        freshEvents.on('completed', (event) => {
          if (event.jobId === jobId)
            done(
              (typeof event.returnvalue === 'string'
                ? JSON.parse(event.returnvalue)
                : event.returnvalue) as ProbeOutcome,
            );
        });
        freshEvents.on('failed', (event) => {
          if (event.jobId === jobId) fail(new Error(`probe job failed: ${event.failedReason}`));
        });
      });
      await freshQueue.add('probe', payload, { jobId });
      await gate.leaseAnswered;
      expect(
        (await steps.rest('admin', 'POST', `/v1/approvals/${approval.id}/revoke`, { reason: 'window' }))
          .status,
      ).toBe(200);
      await sequenced(owner, approval.id);
      gate.open();
      // Never probed on a revoked approval: the worker reads the ledger from the position it took before asking
      // for the lease, and drops the lease (closing its connection) instead of reporting.
      await expect(finished).resolves.toEqual({ outcome: 'dropped', reason: 'revoked' });
    } finally {
      gate.open();
      await owner.end();
      await fresh.close();
      await freshEvents.close();
      await freshQueue.obliterate({ force: true });
      await freshQueue.close();
      await gate.close();
    }
  });

  it('drops a lease it cannot watch: with the ledger unreadable it neither connects nor reports', async () => {
    const gate = await startLeaseAnswerGate(await api.getUrl(), { refuseRevocations: true });
    gate.open();
    const prefix = `gh-test-${randomBytes(6).toString('hex')}`;
    const config = parseConfig(workerConfigSchema, {
      LOG_LEVEL: 'silent',
      REDIS_URL: testRedisUrl(),
      API_URL: gate.url,
      QUEUE_PREFIX: prefix,
      REDIS_KEY_PREFIX: namespaces.REDIS_KEY_PREFIX,
      WORKER_TOKEN: tokens.worker2,
      WORKER_POOL: POOL,
      CHILD_PATH,
      CHILD_USER: 'self',
      CHILD_CLOSE_GRACE_MS: '500',
      DISCOVERY_STARTUP_TIMEOUT_MS: '10000',
    });
    if (!config.ok) throw new Error(config.message);
    const freshQueue = new Queue(probeQueueOf(POOL), { connection: producerRedis, prefix });
    const freshEvents = new QueueEvents(probeQueueOf(POOL), { connection: { url: testRedisUrl() }, prefix });
    await freshEvents.waitUntilReady();
    const fresh = await createWorkerApp(config.config, { logger: silent });
    try {
      const fingerprint = await approve('everything');
      const payload = {
        v: 1,
        tenantId: acme.id,
        workspaceId,
        serverName: 'everything',
        definitionFingerprint: fingerprint,
        principalUserId: null,
        pool: POOL,
        reason: 'manual',
        requestedAt: new Date().toISOString(),
      } as const;
      const jobId = probeJobKey(payload);
      const finished = new Promise<ProbeOutcome>((done, fail) => {
        freshEvents.on('completed', (event) => {
          if (event.jobId === jobId)
            done(
              (typeof event.returnvalue === 'string'
                ? JSON.parse(event.returnvalue)
                : event.returnvalue) as ProbeOutcome,
            );
        });
        freshEvents.on('failed', (event) => {
          if (event.jobId === jobId) fail(new Error(`probe job failed: ${event.failedReason}`));
        });
      });
      await freshQueue.add('probe', payload, { jobId });
      // What it cannot hear revoked it cannot vouch for: revalidated (dropped), never used on its TTL alone.
      await expect(finished).resolves.toEqual({ outcome: 'dropped', reason: 'revalidate' });
    } finally {
      await fresh.close();
      await freshEvents.close();
      await freshQueue.obliterate({ force: true });
      await freshQueue.close();
      await gate.close();
    }
  });
});
