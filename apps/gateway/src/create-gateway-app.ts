import { closeRedis, createRedisConnection } from '@gatehouse/coordination';
import {
  DEFAULT_QUIET_ROUTES,
  createLogger,
  createMetricsRegistry,
  createServiceApp,
  httpCheck,
  redisCheck,
  secretConfigKeys,
  secretConfigValues,
  type Logger,
} from '@gatehouse/platform';
import type { ModuleMetadata } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { gatewayConfigSchema, type GatewayConfig } from './config/gateway.config.js';
import { GatewayModule } from './gateway.module.js';

/** Request bodies above this are refused with 413 before they are parsed. */
export const GATEWAY_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * The MCP endpoints' request line (the workspace endpoint and the per-server passthrough) is logged at debug
 * (decision 0111): one info line per tools/call was the largest cost of the warm path under the gateway-call
 * bench. Every request is still measured (route, status, duration), refusals are counted by reason and failures
 * are logged.
 */
const QUIET_ROUTES = [...DEFAULT_QUIET_ROUTES, '/mcp/w/:workspaceId', '/mcp/w/:workspaceId/s/:server'];

export type GatewayAppDeps = {
  logger?: Logger;
  /** Further Nest modules to mount (tests mount a module with probe routes here). */
  imports?: ModuleMetadata['imports'];
};

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
 * Builds the gateway the way every app is built (createServiceApp: Nest on Fastify): problem+json errors,
 * request logging and metrics, /healthz, /readyz (Redis and the API) and /metrics, and the workspace MCP
 * endpoint `/mcp/w/:workspaceId` (GatewayModule). Initialized, not listening: main listens, tests inject.
 * `close()` drains HTTP, closes the MCP sessions and upstreams (their children), then Redis.
 */
export async function createGatewayApp(
  config: GatewayConfig,
  deps: GatewayAppDeps = {},
): Promise<NestFastifyApplication> {
  const logger = deps.logger ?? createGatewayLogger(config);
  const redis = createRedisConnection({ url: config.REDIS_URL, name: 'gateway', purpose: 'command', logger });
  const metrics = createMetricsRegistry({ app: 'gateway' });
  try {
    return await createServiceApp({
      logger,
      metrics,
      imports: [GatewayModule.forRoot({ config, logger, redis, metrics }), ...(deps.imports ?? [])],
      readiness: {
        redis: redisCheck(redis),
        api: httpCheck(new URL('/healthz', config.API_URL).toString()),
      },
      closeOnShutdown: [{ name: 'redis', close: () => closeRedis(redis) }],
      bodyLimit: GATEWAY_BODY_LIMIT_BYTES,
      quietRoutes: QUIET_ROUTES,
    });
  } catch (error) {
    await closeRedis(redis);
    throw error;
  }
}
