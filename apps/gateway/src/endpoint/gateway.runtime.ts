import { randomUUID } from 'node:crypto';
import { revocationNamespaceOf } from '@gatehouse/coordination';
import { HeldLeases, LeaseApiClient } from '@gatehouse/lease-holder';
import { runAsOptionsOf } from '@gatehouse/mcp-client';
import type { Logger, Registry } from '@gatehouse/platform';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { GatewayActivityRecorder } from '../activity/gateway-activity.recorder.js';
import { CallerCache } from '../callers/caller.cache.js';
import { CallerIntrospectionClient } from '../callers/caller-introspection.client.js';
import { CatalogCache } from '../catalog/catalog.cache.js';
import { WorkspaceCatalogClient } from '../catalog/workspace-catalog.client.js';
import type { GatewayConfig } from '../config/gateway.config.js';
import { GATEWAY_CONFIG, LOGGER, METRICS_REGISTRY } from '../infrastructure/infrastructure.tokens.js';
import { McpSessions } from '../mcp-server/mcp-sessions.js';
import { createWorkspaceServer } from '../mcp-server/workspace-mcp.server.js';
import { GatewayRevocationsHolder } from '../revocations/gateway-revocations.holder.js';
import { UpstreamPool } from '../upstreams/upstream.pool.js';
import { createGatewayMetrics } from './gateway.metrics.js';
import { GatewaySurfaceService } from './gateway-surface.service.js';
import { GatewayToolsService } from './gateway-tools.service.js';
import { RateLimiter } from './rate-limiter.js';
import { WorkspaceEndpoint } from './workspace-endpoint.js';

const SERVER_INFO = { name: 'gatehouse-gateway', version: '0.1.0' } as const;
const CLIENT_INFO = { name: 'gatehouse-gateway', version: '0.1.0' } as const;

/**
 * The workspace gateway, assembled once from the config: caller and catalog caches, the upstream pool with its
 * held leases, the revocation holder that keeps them fresh, the MCP sessions and the endpoint in front of them.
 * Without GATEWAY_TOKEN nothing talks to the API and the endpoint answers 503. Started after the app boots,
 * closed at shutdown (sessions first, then upstreams and their children, then the holder).
 */
@Injectable()
export class GatewayRuntime implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly endpoint: WorkspaceEndpoint;
  readonly sessions: McpSessions;
  readonly upstreams: UpstreamPool | null;
  readonly revocations: GatewayRevocationsHolder | null;
  readonly held = new HeldLeases();
  /** The workspaces' live activity for the dashboard (decision 0118); none without GATEWAY_TOKEN (nothing served). */
  readonly activity: GatewayActivityRecorder | null;

  constructor(
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    @Inject(LOGGER) logger: Logger,
    @Inject(METRICS_REGISTRY) registry: Registry,
  ) {
    const metrics = createGatewayMetrics(registry);
    // Fail closed (decision 0129): a held caller is served only while the revocation holder vouches for it.
    const callers = new CallerCache({
      ttlMs: config.CALLER_CACHE_TTL_MS,
      revocationsLive: () => this.revocations?.live ?? false,
    });
    const catalogs = new CatalogCache({ ttlMs: config.CATALOG_CACHE_TTL_MS });
    const token = config.GATEWAY_TOKEN;
    let tools: GatewayToolsService | null = null;
    let surfaces: GatewaySurfaceService | null = null;
    let sessions: McpSessions | null = null;
    const activity =
      token === undefined
        ? null
        : new GatewayActivityRecorder({
            redisUrl: config.REDIS_URL,
            keyPrefix: config.REDIS_KEY_PREFIX,
            replicaId: randomUUID(),
            logger,
            sessionCounts: () => sessions?.countsByWorkspace() ?? new Map(),
          });
    this.activity = activity;
    this.upstreams =
      token === undefined
        ? null
        : new UpstreamPool({
            leases: new LeaseApiClient({ apiUrl: config.API_URL, token }),
            held: this.held,
            logger,
            clientInfo: CLIENT_INFO,
            searchPath: config.CHILD_PATH,
            runAs: runAsOptionsOf(config.CHILD_USER, config.NODE_ENV),
            closeGraceMs: config.CHILD_CLOSE_GRACE_MS,
            defaultStartupTimeoutMs: config.UPSTREAM_STARTUP_TIMEOUT_MS,
            callTimeoutMs: config.UPSTREAM_CALL_TIMEOUT_MS,
            onListChanged: (key) => {
              catalogs.invalidateWorkspace(key.workspaceId);
              sessions?.notifyListsChanged(key.workspaceId, key.server);
            },
            onDroppedNotification: (method, reason) => metrics.droppedNotification(method, reason),
          });
    if (token !== undefined && this.upstreams !== null) {
      const catalogClient = new WorkspaceCatalogClient({ apiUrl: config.API_URL, gatewayToken: token });
      tools = new GatewayToolsService(catalogs, catalogClient, this.upstreams);
      surfaces = new GatewaySurfaceService(catalogs, catalogClient, this.upstreams);
    }
    const serving = tools;
    const servingSurfaces = surfaces;
    sessions = new McpSessions({
      // One adapter for both endpoints: the workspace's and a server's passthrough differ by their scope only.
      createServer: (scope) => {
        // Only reached for admitted requests, which need the token (the endpoint refuses without it).
        if (serving === null || servingSurfaces === null)
          throw new Error('gateway: no GATEWAY_TOKEN, no MCP server');
        return createWorkspaceServer({
          tools: serving,
          surfaces: servingSurfaces,
          scope,
          serverInfo: SERVER_INFO,
          onToolCall: (outcome, caller) => {
            metrics.toolCall(outcome);
            activity?.toolCall(caller.workspaceId, outcome);
          },
        });
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
    });
    this.sessions = sessions;
    this.revocations =
      token === undefined
        ? null
        : new GatewayRevocationsHolder({
            redisUrl: config.REDIS_URL,
            namespace: revocationNamespaceOf(config.REDIS_KEY_PREFIX),
            apiUrl: config.API_URL,
            gatewayToken: token,
            logger,
            callers,
            catalogs,
            held: this.held,
            onTokensRevoked: (tokenIds) => sessions?.closeForTokens(tokenIds),
            retryMaxDelayMs: config.REVOCATIONS_RETRY_MAX_MS,
          });
    const openSessions = sessions;
    this.endpoint = new WorkspaceEndpoint({
      callers,
      introspection:
        token === undefined
          ? null
          : new CallerIntrospectionClient({ apiUrl: config.API_URL, gatewayToken: token }),
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
        if (servingSurfaces === null) return 'unavailable';
        const read = await servingSurfaces.surface(caller, { kind: 'server', server });
        return read.ok ? 'served' : read.reason === 'not_served' ? 'not_served' : 'unavailable';
      },
      serve: (request, response, body, caller, scope) =>
        openSessions.handle(request, response, body, caller, scope),
    });
  }

  onApplicationBootstrap(): void {
    this.activity?.start();
    // Not awaited: the gateway may start before the API or Redis; the holder retries, /readyz says not ready.
    this.revocations?.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sessions.close();
    // After the sessions: the last flush writes this replica's counts as gone.
    await this.activity?.close();
    this.held.drop('shutdown');
    await this.upstreams?.close();
    await this.revocations?.close();
  }
}
