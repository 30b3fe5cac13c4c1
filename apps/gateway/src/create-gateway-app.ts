import { RedisConnections } from '@gatehouse/coordination';
import {
  DEFAULT_QUIET_ROUTES,
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
import type { ModuleMetadata } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { gatewayConfigSchema, type GatewayConfig } from './config/gateway.config.js';
import { GATEWAY_REVOCATIONS } from './endpoint/gateway-tokens.js';
import { GatewayModule } from './gateway.module.js';
import type { GatewayRevocationsHolder } from './revocations/gateway-revocations.holder.js';

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

/** Up while the revocation holder is live: started, its stream up and caught up. */
function revocationsCheck(holder: () => GatewayRevocationsHolder | null): HealthCheck {
  return () =>
    holder()?.live === true ? Promise.resolve() : Promise.reject(new Error('revocation holder not live'));
}

/**
 * Builds the gateway the way every app is built (createServiceApp: Nest on Fastify): problem+json errors,
 * request logging and metrics, /healthz, /readyz (Redis, the API and the revocation holder) and /metrics, and the workspace MCP
 * endpoint `/mcp/w/:workspaceId` (GatewayModule). Initialized, not listening: main listens, tests inject.
 * `close()` drains HTTP, closes the MCP sessions and upstreams (their children), then Redis.
 */
export async function createGatewayApp(
  config: GatewayConfig,
  deps: GatewayAppDeps = {},
): Promise<NestFastifyApplication> {
  const logger = deps.logger ?? createGatewayLogger(config);
  const connections = new RedisConnections({ url: config.REDIS_URL, app: 'gateway', logger });
  const redis = connections.open('command');
  const metrics = createMetricsRegistry({ app: 'gateway' });
  // The holder exists once the app does; readiness asks it from then on.
  let revocations: GatewayRevocationsHolder | null = null;
  try {
    const app = await createServiceApp({
      logger,
      metrics,
      imports: [
        GatewayModule.forRoot({ config, logger, connections, redis, metrics }),
        ...(deps.imports ?? []),
      ],
      readiness: {
        redis: redisCheck(redis),
        api: httpCheck(new URL('/healthz', config.API_URL).toString()),
        // Not ready until the revocation holder has started and while its stream is lost (decision 0129).
        ...(config.GATEWAY_TOKEN === undefined ? {} : { revocations: revocationsCheck(() => revocations) }),
      },
      // After every provider's own hook: the ones that opened a connection of their own closed it already.
      closeOnShutdown: [{ name: 'redis', close: () => connections.close() }],
      bodyLimit: GATEWAY_BODY_LIMIT_BYTES,
      quietRoutes: QUIET_ROUTES,
    });
    revocations = app.get<GatewayRevocationsHolder | null>(GATEWAY_REVOCATIONS);
    return app;
  } catch (error) {
    await connections.close();
    throw error;
  }
}
