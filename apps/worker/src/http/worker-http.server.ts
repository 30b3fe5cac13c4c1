import {
  HealthChecks,
  createHttpMetrics,
  httpCheck,
  installConnectionDraining,
  installHttpObservability,
  installProblemJsonHandlers,
  redisCheck,
  registerOperationalRoutes,
  type Logger,
  type PingableRedis,
  type Registry,
} from '@gatehouse/platform';
import { fastify, type FastifyInstance } from 'fastify';

/** Per check; below the probe timeouts deployments commonly set (2-5 s). */
const READINESS_TIMEOUT_MS = 2_000;

export type WorkerHttpServerOptions = {
  logger: Logger;
  metrics: Registry;
  redis: PingableRedis;
  apiUrl: string;
};

/**
 * The worker's small HTTP listener: /healthz, /readyz (Redis answers PING, the API answers /healthz) and
 * /metrics. It takes no request bodies.
 */
export function createWorkerHttpServer(options: WorkerHttpServerOptions): FastifyInstance {
  const app = fastify({ logger: false, trustProxy: false, bodyLimit: 1024 });
  installProblemJsonHandlers(app, options.logger);
  installConnectionDraining(app);
  installHttpObservability(app, { logger: options.logger, metrics: createHttpMetrics(options.metrics) });
  const health = new HealthChecks(
    { redis: redisCheck(options.redis), api: httpCheck(new URL('/healthz', options.apiUrl).toString()) },
    {
      timeoutMs: READINESS_TIMEOUT_MS,
      onFailure: (check, reason, error) =>
        options.logger.warn({ check, reason, err: error }, 'readiness check failed'),
    },
  );
  registerOperationalRoutes(app, { health, metrics: options.metrics });
  return app;
}
