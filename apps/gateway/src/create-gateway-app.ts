import { closeRedis, createRedisConnection } from '@gatehouse/coordination';
import {
  HealthChecks,
  createHttpMetrics,
  createLogger,
  createMetricsRegistry,
  httpCheck,
  installConnectionDraining,
  installHttpObservability,
  installProblemJsonHandlers,
  redisCheck,
  registerOperationalRoutes,
  secretConfigKeys,
  secretConfigValues,
  type Logger,
} from '@gatehouse/platform';
import { fastify, type FastifyInstance } from 'fastify';
import { gatewayConfigSchema, type GatewayConfig } from './config/gateway.config.js';

/** Request bodies above this are refused with 413 before they are parsed. */
export const GATEWAY_BODY_LIMIT_BYTES = 1024 * 1024;

/** Per check; below the probe timeouts deployments commonly set (2-5 s). */
const READINESS_TIMEOUT_MS = 2_000;

export type GatewayAppDeps = { logger?: Logger };

/** The gateway's logger: redacts the secret config variables by name and scrubs their values from every line. */
export function createGatewayLogger(config: GatewayConfig): Logger {
  return createLogger({
    name: 'gateway',
    level: config.LOG_LEVEL,
    secretKeys: secretConfigKeys(gatewayConfigSchema),
    secretValues: secretConfigValues(gatewayConfigSchema, config),
  });
}

/**
 * Builds the gateway's Fastify instance: problem+json errors, request logging and metrics, /healthz, /readyz
 * (Redis and the API) and /metrics. The MCP endpoint (`/mcp/:workspaceId`) arrives with the gateway issue; no
 * placeholder is registered, so clients get a plain 404 until it exists. Not yet ready: `listen()` or
 * `inject()` readies it, and routes may still be added until then. `close()` drains HTTP, then closes Redis.
 */
export function createGatewayApp(config: GatewayConfig, deps: GatewayAppDeps = {}): FastifyInstance {
  const logger = deps.logger ?? createGatewayLogger(config);
  const redis = createRedisConnection({ url: config.REDIS_URL, name: 'gateway', purpose: 'command', logger });
  const metrics = createMetricsRegistry({ app: 'gateway' });

  const app = fastify({ logger: false, trustProxy: false, bodyLimit: GATEWAY_BODY_LIMIT_BYTES });
  installProblemJsonHandlers(app, logger);
  installConnectionDraining(app);
  installHttpObservability(app, { logger, metrics: createHttpMetrics(metrics) });
  const health = new HealthChecks(
    { redis: redisCheck(redis), api: httpCheck(new URL('/healthz', config.API_URL).toString()) },
    {
      timeoutMs: READINESS_TIMEOUT_MS,
      onFailure: (check, reason, error) =>
        logger.warn({ check, reason, err: error }, 'readiness check failed'),
    },
  );
  registerOperationalRoutes(app, { health, metrics });
  // onClose runs after the server stopped accepting and in-flight requests finished.
  app.addHook('onClose', async () => {
    await closeRedis(redis);
  });
  return app;
}
