import { RedisConnections } from '@gatehouse/coordination';
import {
  createLogger,
  createMetricsRegistry,
  createServiceApp,
  httpCheck,
  redisCheck,
  secretConfigKeys,
  secretConfigValues,
  type HealthCheck,
  type Logger,
} from '@gatehouse/platform';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { workerConfigSchema, type WorkerConfig } from './config/worker.config.js';
import { LeaseRevocationsHolder } from './revocations/lease-revocations.holder.js';
import { WorkerModule } from './worker.module.js';

/** The worker takes no request bodies: its HTTP listener serves only /healthz, /readyz and /metrics. */
const WORKER_BODY_LIMIT_BYTES = 1024;

export type WorkerApp = {
  /** The Nest application hosting the BullMQ workers (already started) and the health/metrics routes. */
  context: NestFastifyApplication;
  /** Its Fastify instance, not listening: main listens, tests inject. */
  http: FastifyInstance;
  /** Waits for running jobs, closes the Workers and the Queues, stops serving HTTP, then closes Redis. */
  close(): Promise<void>;
};

export type WorkerAppDeps = { logger?: Logger };

/** The worker's logger: redacts the secret config variables by name and scrubs their values from every line. */
export function createWorkerLogger(config: WorkerConfig): Logger {
  return createLogger({
    name: 'worker',
    level: config.LOG_LEVEL,
    secretKeys: secretConfigKeys(workerConfigSchema),
    secretValues: secretConfigValues(workerConfigSchema, config),
  });
}

/** Up while every watched tenant's revocation holder is live: started, its stream up and caught up. */
function revocationsCheck(holder: () => LeaseRevocationsHolder | null): HealthCheck {
  return () =>
    holder()?.live === true ? Promise.resolve() : Promise.reject(new Error('revocation holder not live'));
}

/**
 * Builds the worker the way every app is built (createServiceApp: Nest on Fastify); /readyz checks Redis, the API
 * and, with a WORKER_TOKEN, the revocation holders of the tenants it has leased for.
 */
export async function createWorkerApp(config: WorkerConfig, deps: WorkerAppDeps = {}): Promise<WorkerApp> {
  const logger = deps.logger ?? createWorkerLogger(config);
  // One connection for BullMQ (it duplicates it for its blocking reads and closes only those duplicates).
  const connections = new RedisConnections({ url: config.REDIS_URL, app: 'worker', logger });
  const redis = connections.open('bullmq');
  const metrics = createMetricsRegistry({ app: 'worker' });

  let app: NestFastifyApplication;
  // The holder exists once the app does; readiness asks it from then on.
  let revocations: LeaseRevocationsHolder | null = null;
  try {
    app = await createServiceApp({
      logger,
      metrics,
      imports: [WorkerModule.forRoot({ config, logger, connections, redis, metrics })],
      readiness: {
        redis: redisCheck(redis),
        api: httpCheck(new URL('/healthz', config.API_URL).toString()),
        // Not ready while a watched tenant's holder has not started or its stream is lost (decision 0129).
        ...(config.WORKER_TOKEN === undefined ? {} : { revocations: revocationsCheck(() => revocations) }),
      },
      // Closed last: BullMQ never closes a connection it was given, and its Workers and Queues close in
      // QueueWorkersHost's beforeApplicationShutdown.
      // (Connections opened for a collaborator of its own, the revocation holder's, were closed by it already.)
      closeOnShutdown: [{ name: 'redis', close: () => connections.close() }],
      bodyLimit: WORKER_BODY_LIMIT_BYTES,
    });
    revocations = app.get(LeaseRevocationsHolder);
  } catch (error) {
    await connections.close();
    throw error;
  }

  let closing: Promise<void> | undefined;
  return {
    context: app,
    http: app.getHttpAdapter().getInstance(),
    close: () => {
      closing ??= app.close();
      return closing;
    },
  };
}
