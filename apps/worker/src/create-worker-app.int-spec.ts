import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import {
  catalogRefreshJobKey,
  catalogRefreshQueueOf,
  type CatalogRefreshPayloadV2,
} from '@gatehouse/contracts';
import { closeRedis, createRedisConnection } from '@gatehouse/coordination';
import { createLogger, parseConfig } from '@gatehouse/platform';
import { createTestDatabase, testRedisUrl, type TestDatabase } from '@gatehouse/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
// The worker's readiness depends on the real API, so this test stands one up. Apps never import each other in
// production code; a test reaching for its real peer is the one exception.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { apiConfigSchema } from '../../api/src/config/api.config.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createApiApp } from '../../api/src/create-api-app.js';
import { workerConfigSchema, type WorkerConfig } from './config/worker.config.js';
import { createWorkerApp, type WorkerApp } from './create-worker-app.js';
import { REDIS } from './infrastructure/infrastructure-tokens.js';

const silent = createLogger({ name: 'worker-test', level: 'silent' });

function workerConfig(env: Record<string, string>): WorkerConfig {
  const parsed = parseConfig(workerConfigSchema, { LOG_LEVEL: 'silent', ...env });
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.config;
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function validPayload(): CatalogRefreshPayloadV2 {
  return {
    v: 2,
    tenantId: randomUUID(),
    workspaceId: randomUUID(),
    serverName: 'github',
    definitionFingerprint: `sha256:${randomBytes(8).toString('hex')}`,
    principalUserId: null,
    pool: 'default',
    reason: 'manual',
    requestedAt: new Date().toISOString(),
  };
}

describe('worker app (real Redis, real API)', () => {
  let db: TestDatabase;
  let api: NestFastifyApplication;
  let apiUrl: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    const parsed = parseConfig(apiConfigSchema, {
      DATABASE_URL: db.appUrl,
      REDIS_URL: testRedisUrl(),
      LOG_LEVEL: 'silent',
    });
    if (!parsed.ok) throw new Error(parsed.message);
    api = await createApiApp(parsed.config, { logger: silent });
    await api.listen({ host: '127.0.0.1', port: 0 });
    apiUrl = await api.getUrl();
  });

  afterAll(async () => {
    await api.close();
    await db.drop();
  });

  describe('with Redis and the API up', () => {
    const prefix = `gh-test-${randomBytes(6).toString('hex')}`;
    let worker: WorkerApp;
    let producerConnection: Redis;
    let queue: Queue;
    let events: QueueEvents;

    beforeAll(async () => {
      worker = await createWorkerApp(
        workerConfig({ REDIS_URL: testRedisUrl(), API_URL: apiUrl, QUEUE_PREFIX: prefix }),
        {
          logger: silent,
        },
      );
      producerConnection = createRedisConnection({
        url: testRedisUrl(),
        name: 'worker-test',
        purpose: 'bullmq',
      });
      // The default pool's queue (decision 0069): what this worker (WORKER_POOL unset) consumes.
      queue = new Queue(catalogRefreshQueueOf('default'), { connection: producerConnection, prefix });
      events = new QueueEvents(catalogRefreshQueueOf('default'), {
        connection: { url: testRedisUrl() },
        prefix,
      });
      await events.waitUntilReady();
    });

    afterAll(async () => {
      await worker.close();
      await events.close();
      await queue.obliterate({ force: true });
      await queue.close();
      await closeRedis(producerConnection);
    });

    it('completes a valid job as skipped when it has no worker token to lease with', async () => {
      const payload = validPayload();
      const job = await queue.add('refresh', payload, { jobId: catalogRefreshJobKey(payload) });
      await expect(job.waitUntilFinished(events)).resolves.toEqual({
        outcome: 'skipped',
        reason: 'no_worker_token',
      });
    });

    it('fails a job with a bad payload with a typed reason, without retries, and keeps running', async () => {
      const bad = await queue.add(
        'refresh',
        { v: 1, tenantId: 'not-a-uuid' },
        { jobId: `bad-${randomUUID()}`, attempts: 3 },
      );
      await expect(bad.waitUntilFinished(events)).rejects.toThrow('invalid_payload');
      const failed = await queue.getJob(bad.id ?? '');
      expect(failed?.failedReason).toBe('invalid_payload');
      expect(failed?.attemptsMade).toBe(1);
      expect(await failed?.getState()).toBe('failed');

      const unknownVersion = await queue.add(
        'refresh',
        { ...validPayload(), v: 3 },
        { jobId: `v2-${randomUUID()}` },
      );
      await expect(unknownVersion.waitUntilFinished(events)).rejects.toThrow('unsupported_version');

      const payload = validPayload();
      const next = await queue.add('refresh', payload, { jobId: catalogRefreshJobKey(payload) });
      await expect(next.waitUntilFinished(events)).resolves.toMatchObject({ outcome: 'skipped' });
    });

    it('uses the jobId as idempotency key: the same request enqueued twice is one job', async () => {
      const states = ['waiting', 'active', 'delayed', 'completed', 'failed'] as const;
      const total = async () => Object.values(await queue.getJobCounts(...states)).reduce((a, b) => a + b, 0);
      const before = await total();
      const payload = validPayload();
      const first = await queue.add('refresh', payload, { jobId: catalogRefreshJobKey(payload) });
      const second = await queue.add('refresh', payload, { jobId: catalogRefreshJobKey(payload) });
      expect(second.id).toBe(first.id);
      await first.waitUntilFinished(events);
      expect((await total()) - before).toBe(1);
    });

    it('answers /healthz and /readyz 200 when Redis and the API answer', async () => {
      expect((await worker.http.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
      const ready = await worker.http.inject({ method: 'GET', url: '/readyz' });
      expect(ready.json()).toEqual({
        status: 'ok',
        checks: { redis: { status: 'up' }, api: { status: 'up' } },
      });
      expect(ready.statusCode).toBe(200);
    });

    it('exposes job and queue metrics', async () => {
      const response = await worker.http.inject({ method: 'GET', url: '/metrics' });
      expect(response.statusCode).toBe(200);
      expect(response.body).toMatch(
        /worker_jobs_total\{queue="catalog-refresh",outcome="completed",app="worker"\} [1-9]/,
      );
      expect(response.body).toMatch(
        /worker_jobs_total\{queue="catalog-refresh",outcome="rejected",app="worker"\} [1-9]/,
      );
      expect(response.body).toContain('queue_jobs{queue="catalog-refresh",state="failed",app="worker"}');
      expect(response.body).toContain('process_cpu_user_seconds_total{app="worker"}');
    });

    it('answers unknown routes with problem+json', async () => {
      const response = await worker.http.inject({ method: 'GET', url: '/nope' });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.json()).toMatchObject({ code: 'not_found' });
    });
  });

  it('answers /readyz 503 naming Redis and the API when both are unreachable, and still shuts down', async () => {
    const worker = await createWorkerApp(
      workerConfig({
        REDIS_URL: `redis://127.0.0.1:${await closedPort()}`,
        API_URL: `http://127.0.0.1:${await closedPort()}`,
        QUEUE_PREFIX: `gh-test-${randomBytes(6).toString('hex')}`,
      }),
      { logger: silent },
    );
    try {
      const ready = await worker.http.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({
        status: 'unavailable',
        checks: { redis: { status: 'down' }, api: { status: 'down', reason: 'failed' } },
      });
      expect((await worker.http.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await worker.close();
    }
  }, 20_000);

  it('closes the BullMQ workers, the queues and its Redis connection on shutdown', async () => {
    const worker = await createWorkerApp(
      workerConfig({
        REDIS_URL: testRedisUrl(),
        API_URL: apiUrl,
        QUEUE_PREFIX: `gh-test-${randomBytes(6).toString('hex')}`,
      }),
      { logger: silent },
    );
    const redis = worker.context.get<Redis>(REDIS);
    await new Promise<void>((resolve) =>
      redis.status === 'ready' ? resolve() : redis.once('ready', () => resolve()),
    );
    await worker.close();
    expect(redis.status).toBe('end');
    expect(worker.http.server.listening).toBe(false);
  });
});
