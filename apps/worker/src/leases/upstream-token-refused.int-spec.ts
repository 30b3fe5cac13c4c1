import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import {
  catalogRefreshJobKey,
  catalogRefreshQueueOf,
  probeJobKey,
  probeQueueOf,
  type CatalogRefreshPayloadV2,
  type ProbePayload,
} from '@gatehouse/contracts';
import { closeRedis, createRedisConnection } from '@gatehouse/coordination';
import { createDatabase, type Database } from '@gatehouse/db';
import { createFixedResolver } from '@gatehouse/egress';
import { createLogger, parseConfig } from '@gatehouse/platform';
import {
  bearerDigestOf,
  createApiSteps,
  createTestDatabase,
  createTestTenant,
  createTestWorkspace,
  followSignIn,
  OidcProviderProcess,
  startTokenRefusingUpstream,
  testApiEnv,
  testNamespaces,
  testRedisUrl,
  TEST_DATABASE_TIMEOUT_MS,
  type ApiSteps,
  type TestDatabase,
  type TestTenant,
  type TestUser,
  type TokenRefusingUpstream,
} from '@gatehouse/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
// The processors' peer is the real API (sign-in, leases with access tokens, the refresh once): a test reaching
// for its real peer is the one place an app imports another.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { CatalogRefreshProducer } from '../../../api/src/catalog-refresh-queue/catalog-refresh-producer.js';
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
import type { ProbeOutcome } from '../probes/probe-processor.js';

// An upstream 401 on a lease that carries an access token (decision 0082), through the worker's real
// processors: the member signs in through the API against oidc-provider on loopback; the upstream MCP server
// (an in-process SDK server) takes a bearer unless the test has had it refuse that token (as an issuer that
// revoked it). The worker retries once with a fresh lease asked with the refused token's digest (the API
// refreshes it, one grant), and a second 401 is `auth_refused`, typed and content-free. Both leases are
// released.

jest.setTimeout(120_000);

const PUBLIC_URL = 'http://127.0.0.1:4000';
const REDIRECT_URI = `${PUBLIC_URL}/v1/oauth/callback`;
const POOL = 'local';
/** This file's own queue and revocation namespaces (its API's and its worker's). */
const namespaces = testNamespaces();
const PREFIX = namespaces.QUEUE_PREFIX;
const SERVER = 'signed';

let testDb: TestDatabase;
let db: Database;
let api: NestFastifyApplication;
let provider: OidcProviderProcess;
let upstream: TokenRefusingUpstream;
let acme: TestTenant;
let workspaceId: string;
let member: TestUser;
let fingerprint: string;
let worker: WorkerApp;
let producerRedis: Redis;
const queues: Queue[] = [];
const events: QueueEvents[] = [];
const tokens = { admin: '', approver: '', member: '', worker: '' };
let steps: ApiSteps<keyof typeof tokens>;

/** The member's current access token, as a lease carries it (the lease released at once). */
async function currentToken(): Promise<string> {
  const lease = await steps.expectOk(
    steps.rest('worker', 'POST', '/v1/leases', {
      workspaceId,
      serverName: SERVER,
      principalUserId: member.id,
    }),
    201,
  );
  await steps.expectOk(steps.rest('worker', 'POST', `/v1/leases/${lease.id as string}/release`));
  const transport = (lease.transport as { transport: { oauth?: { accessToken: string } } }).transport;
  if (transport.oauth === undefined) throw new Error('the lease carries no access token');
  return transport.oauth.accessToken;
}

type LeaseRow = { released: boolean; revoked: boolean };

/** The server's leases since `since`, as the database superuser reads them. */
async function leasesSince(since: Date): Promise<LeaseRow[]> {
  const owner = new Client({ connectionString: testDb.adminUrl });
  await owner.connect();
  try {
    const result = await owner.query<LeaseRow>(
      `SELECT released_at IS NOT NULL AS released, revoked_at IS NOT NULL AS revoked FROM leases
        WHERE workspace_id = $1 AND server_name = $2 AND issued_at >= $3 ORDER BY issued_at`,
      [workspaceId, SERVER, since],
    );
    return result.rows;
  } finally {
    await owner.end();
  }
}

function finished<T>(queueEvents: QueueEvents, jobId: string): Promise<T> {
  return new Promise((done, fail) => {
    const onCompleted = (event: { jobId: string; returnvalue: unknown }) => {
      if (event.jobId !== jobId) return;
      queueEvents.off('completed', onCompleted);
      done((typeof event.returnvalue === 'string' ? JSON.parse(event.returnvalue) : event.returnvalue) as T);
    };
    queueEvents.on('completed', onCompleted);
    queueEvents.on('failed', (event: { jobId: string; failedReason: string }) => {
      if (event.jobId === jobId) fail(new Error(`job failed: ${event.failedReason}`));
    });
  });
}

async function runProbe(): Promise<ProbeOutcome> {
  const payload: ProbePayload = {
    v: 1,
    tenantId: acme.id,
    workspaceId,
    serverName: SERVER,
    definitionFingerprint: fingerprint,
    principalUserId: member.id,
    pool: POOL,
    reason: 'manual',
    requestedAt: new Date().toISOString(),
  };
  const jobId = `${probeJobKey(payload)}.${randomUUID()}`;
  const outcome = finished<ProbeOutcome>(events[0]!, jobId);
  await queues[0]!.add('probe', payload, { jobId });
  return outcome;
}

async function runCatalogRefresh(): Promise<CatalogRefreshOutcome> {
  const payload: CatalogRefreshPayloadV2 = {
    v: 2,
    tenantId: acme.id,
    workspaceId,
    serverName: SERVER,
    definitionFingerprint: fingerprint,
    principalUserId: member.id,
    pool: POOL,
    reason: 'manual',
    requestedAt: new Date().toISOString(),
  };
  const jobId = `${catalogRefreshJobKey(payload)}.${randomUUID()}`;
  const outcome = finished<CatalogRefreshOutcome>(events[1]!, jobId);
  await queues[1]!.add('refresh', payload, { jobId });
  return outcome;
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 3 });
  provider = await OidcProviderProcess.start({ clients: [] });
  upstream = await startTokenRefusingUpstream({ issuer: provider.issuer });
  acme = await createTestTenant(db, { slug: `acme-${randomUUID().slice(0, 8)}` });
  const admin = await createMember(db, acme, 'admin');
  const approver = await createMember(db, acme, 'approver');
  member = await createMember(db, acme, 'member');
  workspaceId = (await createTestWorkspace(db, acme.id)).id;
  tokens.admin = (await mintTestToken(db, acme, admin, { kind: 'user' })).secret;
  tokens.approver = (await mintTestToken(db, acme, approver, { kind: 'user' })).secret;
  tokens.member = (await mintTestToken(db, acme, member, { kind: 'user' })).secret;
  tokens.worker = await mintWorkerTestToken(db, acme, admin, { pool: POOL });
  const parsed = parseConfig(
    apiConfigSchema,
    testApiEnv(testDb.appUrl, {
      ...namespaces,
      PUBLIC_URL,
      WORKER_POOLS: JSON.stringify({ [POOL]: { tenants: [acme.slug], allowInsecureLoopback: true } }),
    }),
  );
  if (!parsed.ok) throw new Error(parsed.message);
  api = await createApiApp(parsed.config, {
    logger: createLogger({ name: 'upstream-401-test-api', level: 'silent' }),
    egressResolver: createFixedResolver({}),
  });
  await api.listen({ host: '127.0.0.1', port: 0 });
  steps = createApiSteps({
    api,
    tokens,
    workspaceId,
    admin: 'admin',
    approver: 'approver',
    worker: 'worker',
    discovery: { clientName: 'upstream-401-test', searchPath: '/usr/bin:/bin' },
  });
  await steps.defineServers(
    'admin',
    'managed',
    { [SERVER]: { type: 'http', url: `${upstream.origin}/mcp`, oauth: { scopes: ['mcp:tools'] } } },
    'oauth',
  );
  ({ fingerprint } = await steps.approve(SERVER));
  const started = await steps.expectOk(
    steps.rest('member', 'POST', `/v1/workspaces/${workspaceId}/oauth/sign-in`, { serverName: SERVER }),
    201,
  );
  const redirectUrl = await followSignIn(started.authorizationUrl as string, REDIRECT_URI);
  await steps.expectOk(steps.rest('member', 'POST', '/v1/oauth/sign-in/complete', { redirectUrl }));

  producerRedis = createRedisConnection({
    url: testRedisUrl(),
    name: 'upstream-401-test',
    purpose: 'bullmq',
  });
  for (const name of [probeQueueOf(POOL), catalogRefreshQueueOf(POOL)]) {
    const queue = new Queue(name, { connection: producerRedis, prefix: PREFIX });
    // The approval's own refresh (for the workspace alone: needs sign-in) is not this test's.
    await api.get(CatalogRefreshProducer).settled();
    await queue.obliterate({ force: true });
    queues.push(queue);
    const queueEvents = new QueueEvents(name, { connection: { url: testRedisUrl() }, prefix: PREFIX });
    await queueEvents.waitUntilReady();
    events.push(queueEvents);
  }
  const config = parseConfig(workerConfigSchema, {
    LOG_LEVEL: 'silent',
    REDIS_URL: testRedisUrl(),
    API_URL: await api.getUrl(),
    QUEUE_PREFIX: PREFIX,
    REDIS_KEY_PREFIX: namespaces.REDIS_KEY_PREFIX,
    WORKER_TOKEN: tokens.worker,
    WORKER_POOL: POOL,
    CHILD_PATH: '/usr/bin:/bin',
    CHILD_USER: 'self',
    DISCOVERY_STARTUP_TIMEOUT_MS: '10000',
  });
  if (!config.ok) throw new Error(config.message);
  worker = await createWorkerApp(config.config, {
    logger: createLogger({ name: 'upstream-401-test-worker', level: 'silent' }),
  });
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await worker?.close();
  for (const queueEvents of events) await queueEvents.close();
  for (const queue of queues) {
    await queue.obliterate({ force: true });
    await queue.close();
  }
  if (producerRedis) await closeRedis(producerRedis);
  await api?.close();
  await upstream?.close();
  await provider?.stop();
  await db?.close();
  await testDb?.drop();
}, TEST_DATABASE_TIMEOUT_MS);

beforeEach(async () => {
  upstream.refused.clear();
  upstream.refuseAll.value = false;
  upstream.seen.length = 0;
  await provider.configure({ resetStats: true });
});

describe('an upstream 401 on a lease that carries an access token', () => {
  it('a probe retries once with a fresh lease, whose token the API refreshed (one grant), and reports ready', async () => {
    const before = await currentToken();
    upstream.refused.add(bearerDigestOf(before));
    const since = new Date();

    await expect(runProbe()).resolves.toMatchObject({
      outcome: 'reported',
      state: 'ready',
      failureClass: null,
    });

    expect((await provider.stats()).refreshGrants).toBe(1);
    const after = await currentToken();
    expect(after).not.toBe(before);
    // The refused token once, then only the refreshed one; never a request without a bearer.
    expect(upstream.seen[0]).toEqual({ digest: bearerDigestOf(before), status: 401 });
    expect(upstream.seen.slice(1).every((s) => s.digest === bearerDigestOf(after) && s.status === 200)).toBe(
      true,
    );
    expect(upstream.seen.length).toBeGreaterThan(1);
    // The job's lease and its fresh lease, both released (and the test's own lease of `currentToken`).
    const rows = await leasesSince(since);
    expect(rows.length).toBe(3);
    expect(rows.every((row) => row.released && !row.revoked)).toBe(true);
  });

  it('a probe refused again after the fresh lease reports failed, auth_refused: one retry, one grant', async () => {
    const first = await currentToken();
    upstream.refuseAll.value = true;

    await expect(runProbe()).resolves.toMatchObject({
      outcome: 'reported',
      state: 'failed',
      failureClass: 'auth',
    });

    expect((await provider.stats()).refreshGrants).toBe(1);
    const second = await currentToken();
    expect(upstream.seen).toEqual([
      { digest: bearerDigestOf(first), status: 401 },
      { digest: bearerDigestOf(second), status: 401 },
    ]);
    const owner = new Client({ connectionString: testDb.adminUrl });
    await owner.connect();
    try {
      const { rows } = await owner.query<{ reason: string }>(
        'SELECT reason FROM server_probes WHERE workspace_id = $1 AND server_name = $2',
        [workspaceId, SERVER],
      );
      expect(rows).toEqual([{ reason: 'auth_refused' }]);
    } finally {
      await owner.end();
    }
  });

  it('a catalog refresh refused again after the fresh lease ends auth_refused: one retry, one grant', async () => {
    const first = await currentToken();
    // The refreshed token is refused too: the upstream takes none of this credential's tokens.
    upstream.refuseAll.value = true;
    const since = new Date();

    // Refused for a reason retrying does not fix: reported for the lease at once (decision 0142).
    await expect(runCatalogRefresh()).resolves.toEqual({
      outcome: 'unreachable',
      failureClass: 'auth',
      reason: 'auth_refused',
      reported: true,
    });

    expect((await provider.stats()).refreshGrants).toBe(1);
    const second = await currentToken();
    expect(second).not.toBe(first);
    // Exactly two attempts: the lease's token, then the fresh lease's; both refused; never unauthenticated.
    expect(upstream.seen).toEqual([
      { digest: bearerDigestOf(first), status: 401 },
      { digest: bearerDigestOf(second), status: 401 },
    ]);
    const rows = await leasesSince(since);
    expect(rows.length).toBe(3);
    expect(rows.every((row) => row.released && !row.revoked)).toBe(true);
  });
});
