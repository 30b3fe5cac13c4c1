import { randomUUID } from 'node:crypto';
import { RedisConnections, revocationNamespaceOf } from '@gatehouse/coordination';
import { HeldLeases, LeaseApiClient } from '@gatehouse/lease-holder';
import { runAsOptionsOf } from '@gatehouse/mcp-client';
import type { Logger, Registry } from '@gatehouse/platform';
import type { Provider } from '@nestjs/common';
import { GatewayActivityRecorder } from '../activity/gateway-activity-recorder.js';
import { CallerCache } from '../callers/caller-cache.js';
import { CallerIntrospectionClient } from '../callers/caller-introspection.client.js';
import { CatalogCache } from '../catalog/catalog-cache.js';
import { WorkspaceCatalogClient } from '../catalog/workspace-catalog.client.js';
import type { GatewayConfig } from '../config/gateway.config.js';
import { GATEWAY_CONFIG, LOGGER, METRICS_REGISTRY } from '../infrastructure/infrastructure-tokens.js';
import { McpServing } from '../mcp-server/mcp-serving.js';
import { McpSessions } from '../mcp-server/mcp-sessions.js';
import { ModernExchanges } from '../mcp-server/modern/modern-exchanges.js';
import { requestStateKeyOf } from '../mcp-server/modern/request-state-codec.js';
import { RedisSpentRequestStates } from '../mcp-server/modern/spent-request-states.js';
import type { SurfaceRequestsOptions } from '../mcp-server/surface-requests.js';
import { surfaceRequests } from '../mcp-server/surface-requests.js';
import { createWorkspaceServer } from '../mcp-server/workspace-server.js';
import type { SurfaceScope } from '../catalog/served-surface.js';
import { GatewayRevocationsHolder } from '../revocations/gateway-revocations.holder.js';
import { UpstreamPool } from '../upstreams/upstream-pool.js';
import { createGatewayMetrics, type GatewayMetrics } from './gateway-metrics.js';
import {
  GATEWAY_ACTIVITY,
  GATEWAY_METRICS,
  GATEWAY_REVOCATIONS,
  GATEWAY_SERVING,
  REVOCATIONS_BINDING,
  SESSIONS_BINDING,
  UPSTREAM_POOL,
} from './gateway-tokens.js';
import { GatewaySurfaceService } from './gateway-surface.service.js';
import { GatewayToolsService } from './gateway-tools.service.js';
import { LateBinding } from './late-binding.js';
import { RateLimiter } from './rate-limiter.js';
import { WorkspaceEndpoint } from './workspace-endpoint.js';

const SERVER_INFO = { name: 'gatehouse-gateway', version: '0.1.0' } as const;
const CLIENT_INFO = { name: 'gatehouse-gateway', version: '0.1.0' } as const;

/** What one surface's requests answer from, in either protocol era, counting each tools/call's outcome. */
function surfaceRequestsOptions(
  serving: GatewayServing | null,
  scope: SurfaceScope,
  metrics: GatewayMetrics,
  activity: GatewayActivityRecorder | null,
): SurfaceRequestsOptions {
  // Only reached for admitted requests, which need the token (the endpoint refuses without it).
  if (serving === null) throw new Error('gateway: no GATEWAY_TOKEN, no MCP server');
  return {
    tools: serving.tools,
    surfaces: serving.surfaces,
    scope,
    onToolCall: (outcome, caller) => {
      metrics.toolCall(outcome);
      activity?.toolCall(caller.workspaceId, outcome);
    },
  };
}

/** What the workspace MCP servers answer from; absent without GATEWAY_TOKEN (nothing is served then). */
export interface GatewayServing {
  readonly tools: GatewayToolsService;
  readonly surfaces: GatewaySurfaceService;
}

/**
 * The workspace gateway's collaborators, each built by a factory from the config and the others: caller and
 * catalog caches, the upstream pool with its held leases, the revocation holder that keeps them fresh, the
 * activity recorder, the MCP sessions and the endpoint in front of them. Without GATEWAY_TOKEN nothing talks
 * to the API: the pool, the holder, the activity and the serving services are null and the endpoint answers
 * 503. GatewayLifecycle starts and closes the ones that own resources.
 */
export const gatewayProviders: Provider[] = [
  {
    provide: GATEWAY_METRICS,
    inject: [METRICS_REGISTRY],
    useFactory: (registry: Registry): GatewayMetrics => createGatewayMetrics(registry),
  },
  { provide: HeldLeases, useFactory: () => new HeldLeases() },
  { provide: SESSIONS_BINDING, useFactory: () => new LateBinding<McpServing>() },
  { provide: REVOCATIONS_BINDING, useFactory: () => new LateBinding<GatewayRevocationsHolder>() },
  {
    provide: CatalogCache,
    inject: [GATEWAY_CONFIG],
    useFactory: (config: GatewayConfig) => new CatalogCache({ ttlMs: config.CATALOG_CACHE_TTL_MS }),
  },
  {
    provide: CallerCache,
    inject: [GATEWAY_CONFIG, REVOCATIONS_BINDING],
    useFactory: (config: GatewayConfig, revocations: LateBinding<GatewayRevocationsHolder | null>) =>
      new CallerCache({
        ttlMs: config.CALLER_CACHE_TTL_MS,
        // Fail closed (decision 0129): a held caller is served only while the revocation holder vouches for it.
        revocationsLive: () => revocations.current?.live ?? false,
      }),
  },
  {
    provide: GATEWAY_ACTIVITY,
    inject: [GATEWAY_CONFIG, LOGGER, RedisConnections, SESSIONS_BINDING],
    useFactory: (
      config: GatewayConfig,
      logger: Logger,
      connections: RedisConnections,
      sessions: LateBinding<McpServing>,
    ): GatewayActivityRecorder | null =>
      // The workspaces' live activity for the dashboard (decision 0118); none without GATEWAY_TOKEN (nothing served).
      config.GATEWAY_TOKEN === undefined
        ? null
        : new GatewayActivityRecorder({
            connect: () => connections.open('command', 'activity'),
            keyPrefix: config.REDIS_KEY_PREFIX,
            replicaId: randomUUID(),
            logger,
            sessionCounts: () => sessions.current?.countsByWorkspace() ?? new Map(),
          }),
  },
  {
    provide: UPSTREAM_POOL,
    inject: [GATEWAY_CONFIG, LOGGER, HeldLeases, CatalogCache, GATEWAY_METRICS, SESSIONS_BINDING],
    useFactory: (
      config: GatewayConfig,
      logger: Logger,
      held: HeldLeases,
      catalogs: CatalogCache,
      metrics: GatewayMetrics,
      sessions: LateBinding<McpServing>,
    ): UpstreamPool | null =>
      config.GATEWAY_TOKEN === undefined
        ? null
        : new UpstreamPool({
            leases: new LeaseApiClient({ apiUrl: config.API_URL, token: config.GATEWAY_TOKEN }),
            held,
            logger,
            clientInfo: CLIENT_INFO,
            searchPath: config.CHILD_PATH,
            runAs: runAsOptionsOf(config.CHILD_USER, config.NODE_ENV),
            closeGraceMs: config.CHILD_CLOSE_GRACE_MS,
            defaultStartupTimeoutMs: config.UPSTREAM_STARTUP_TIMEOUT_MS,
            callTimeoutMs: config.UPSTREAM_CALL_TIMEOUT_MS,
            onListChanged: (key) => {
              catalogs.invalidateWorkspace(key.workspaceId);
              sessions.current?.notifyListsChanged(key.workspaceId, key.server);
            },
            onDroppedNotification: (method, reason) => metrics.droppedNotification(method, reason),
          }),
  },
  {
    provide: GATEWAY_SERVING,
    inject: [GATEWAY_CONFIG, CatalogCache, UPSTREAM_POOL],
    useFactory: (
      config: GatewayConfig,
      catalogs: CatalogCache,
      upstreams: UpstreamPool | null,
    ): GatewayServing | null => {
      if (config.GATEWAY_TOKEN === undefined || upstreams === null) return null;
      const catalogClient = new WorkspaceCatalogClient({
        apiUrl: config.API_URL,
        gatewayToken: config.GATEWAY_TOKEN,
      });
      return {
        tools: new GatewayToolsService(catalogs, catalogClient, upstreams),
        surfaces: new GatewaySurfaceService(catalogs, catalogClient, upstreams),
      };
    },
  },
  {
    provide: McpSessions,
    inject: [GATEWAY_CONFIG, GATEWAY_SERVING, GATEWAY_METRICS, GATEWAY_ACTIVITY],
    useFactory: (
      config: GatewayConfig,
      serving: GatewayServing | null,
      metrics: GatewayMetrics,
      activity: GatewayActivityRecorder | null,
    ) =>
      new McpSessions({
        // One adapter for both endpoints: the workspace's and a server's passthrough differ by their scope only.
        createServer: (scope) => {
          const requests = surfaceRequests(surfaceRequestsOptions(serving, scope, metrics, activity));
          return {
            server: createWorkspaceServer({ serverInfo: SERVER_INFO, requests, era: 'legacy' }),
            callTool: requests.callTool,
          };
        },
        maxSessionsPerToken: config.SESSIONS_PER_TOKEN,
        onSessionLimit: (caller) => {
          metrics.refused('session_limit');
          activity?.refused(caller.workspaceId, 'session_limit');
        },
        onSessionCount: (count) => metrics.sessions.set(count),
        onSessionNotFound: (caller) => {
          metrics.refused('session_not_found');
          activity?.refused(caller.workspaceId, 'session_not_found');
        },
      }),
  },
  {
    provide: McpServing,
    inject: [
      GATEWAY_CONFIG,
      LOGGER,
      RedisConnections,
      GATEWAY_SERVING,
      GATEWAY_METRICS,
      GATEWAY_ACTIVITY,
      McpSessions,
      SESSIONS_BINDING,
    ],
    useFactory: (
      config: GatewayConfig,
      logger: Logger,
      connections: RedisConnections,
      serving: GatewayServing | null,
      metrics: GatewayMetrics,
      activity: GatewayActivityRecorder | null,
      sessions: McpSessions,
      binding: LateBinding<McpServing>,
    ) => {
      const modern = new ModernExchanges({
        requestsFor: (scope) => surfaceRequests(surfaceRequestsOptions(serving, scope, metrics, activity)),
        serverInfo: SERVER_INFO,
        onError: (error) => logger.debug({ err: error }, 'gateway: a 2026 request was refused or failed'),
        ...(config.GATEWAY_TOKEN === undefined
          ? {}
          : {
              requestStates: {
                key: requestStateKeyOf(config.GATEWAY_TOKEN),
                spent: new RedisSpentRequestStates(
                  connections.open('command', 'request-states'),
                  config.REDIS_KEY_PREFIX,
                ),
              },
            }),
      });
      const both = new McpServing(sessions, modern);
      binding.bind(both);
      return both;
    },
  },
  {
    provide: GATEWAY_REVOCATIONS,
    inject: [
      GATEWAY_CONFIG,
      LOGGER,
      RedisConnections,
      CallerCache,
      CatalogCache,
      HeldLeases,
      McpServing,
      REVOCATIONS_BINDING,
    ],
    useFactory: (
      config: GatewayConfig,
      logger: Logger,
      connections: RedisConnections,
      callers: CallerCache,
      catalogs: CatalogCache,
      held: HeldLeases,
      sessions: McpServing,
      binding: LateBinding<GatewayRevocationsHolder | null>,
    ): GatewayRevocationsHolder | null => {
      const holder =
        config.GATEWAY_TOKEN === undefined
          ? null
          : new GatewayRevocationsHolder({
              connect: () => connections.open('subscriber', 'revocations'),
              namespace: revocationNamespaceOf(config.REDIS_KEY_PREFIX),
              apiUrl: config.API_URL,
              gatewayToken: config.GATEWAY_TOKEN,
              logger,
              callers,
              catalogs,
              held,
              onTokensRevoked: (tokenIds) => sessions.closeForTokens(tokenIds),
              retryMaxDelayMs: config.REVOCATIONS_RETRY_MAX_MS,
            });
      binding.bind(holder);
      return holder;
    },
  },
  {
    provide: WorkspaceEndpoint,
    inject: [
      GATEWAY_CONFIG,
      LOGGER,
      CallerCache,
      GATEWAY_METRICS,
      GATEWAY_ACTIVITY,
      GATEWAY_SERVING,
      McpServing,
    ],
    useFactory: (
      config: GatewayConfig,
      logger: Logger,
      callers: CallerCache,
      metrics: GatewayMetrics,
      activity: GatewayActivityRecorder | null,
      serving: GatewayServing | null,
      sessions: McpServing,
    ) =>
      new WorkspaceEndpoint({
        callers,
        introspection:
          config.GATEWAY_TOKEN === undefined
            ? null
            : new CallerIntrospectionClient({ apiUrl: config.API_URL, gatewayToken: config.GATEWAY_TOKEN }),
        originHost: {
          allowedHosts: config.GATEWAY_ALLOWED_HOSTS.map((h) => h.toLowerCase()),
          allowedOrigins: config.GATEWAY_ALLOWED_ORIGINS.map((o) => o.toLowerCase()),
        },
        perToken: new RateLimiter({ limit: config.RATE_LIMIT_PER_TOKEN }),
        perWorkspace: new RateLimiter({ limit: config.RATE_LIMIT_PER_WORKSPACE }),
        metrics,
        onCallerRefused: (workspaceId, reason) => activity?.refused(workspaceId, reason),
        logger,
        isServed: async (caller, server) => {
          // Only reached for admitted requests, which need the token.
          if (serving === null) return 'unavailable';
          const read = await serving.surfaces.surface(caller, { kind: 'server', server });
          return read.ok ? 'served' : read.reason === 'not_served' ? 'not_served' : 'unavailable';
        },
        serve: (request, response, body, caller, scope) =>
          sessions.handle(request, response, body, caller, scope),
      }),
  },
];
