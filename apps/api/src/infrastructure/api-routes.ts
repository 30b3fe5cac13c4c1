import type { CommandDefinition } from '@gatehouse/commands';
import type { Logger } from '@gatehouse/platform';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { AuditCheckpointLogger } from '../audit/audit-checkpoint-logger.js';
import { withAuditCheckpoints } from '../audit/audit-checkpointed-handlers.js';
import { registerAuditExportRoute } from '../audit/audit-export.routes.js';
import { refusedWritesRecorder } from '../audit/refused-writes-recorder.js';
import { registerAuthRoutes } from '../auth/auth.routes.js';
import type { IdentityDeps } from '../auth/identity-deps.js';
import { IDENTITY_DEPS } from '../auth/identity-tokens.js';
import type { WorkerPools } from '../auth/pool-config.js';
import { resolvePrincipal } from '../auth/resolve-principal.js';
import { registerInvitationLinkRoutes } from '../tenancy/invitation-link.routes.js';
import { registerAdminSurfaces } from '../register-admin-surfaces.js';
import { CommandHandlerRegistry } from '../admin-surfaces/registry/command-handler-registry.js';
import type { ApiConfig } from '../config/api.config.js';
import { registerOAuthCallbackRoute } from '../oauth/oauth-callback.routes.js';
import { OAUTH_RUNTIME, type OAuthRuntime } from '../oauth-credentials/oauth-runtime.js';
import { API_COMMANDS } from './api-routes-tokens.js';
import { WORKER_POOLS } from './command-deps-tokens.js';
import { API_CONFIG, LOGGER, REDIS } from './infrastructure-tokens.js';

/**
 * The API's routes that are not Nest controllers: sign-in and the invitation link, the OAuth callback, the audit
 * export and everything generated from the command registry (REST under /v1, OpenAPI at /docs, GraphQL at
 * /graphql). A provider like any other: what the routes take is injected. They are registered on Nest's Fastify
 * instance at bootstrap: after Nest has added its controllers and set its error and not-found handlers (each of
 * these routes has its scope's own problem+json error handler), so loading their plugins builds Nest's routes
 * with Nest's handlers; after the providers that watch routes through onRoute were built (the cross-tenant
 * harness's collector); before the app listens.
 */
@Injectable()
export class ApiRoutes implements OnApplicationBootstrap {
  constructor(
    @Inject(HttpAdapterHost) private readonly host: HttpAdapterHost,
    @Inject(IDENTITY_DEPS) private readonly identity: IdentityDeps,
    @Inject(CommandHandlerRegistry) private readonly registry: CommandHandlerRegistry,
    @Inject(OAUTH_RUNTIME) private readonly oauth: OAuthRuntime,
    @Inject(API_CONFIG) private readonly config: ApiConfig,
    @Inject(WORKER_POOLS) private readonly workerPools: WorkerPools,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(API_COMMANDS) private readonly commands: readonly CommandDefinition[],
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { identity, logger, workerPools } = this;
    const fastify = this.host.httpAdapter.getInstance<FastifyInstance>();
    registerAuthRoutes(fastify, identity);
    registerInvitationLinkRoutes(fastify, identity);
    // The use cases are the feature modules' providers, discovered by their @HandlesCommand mark; a command
    // without exactly one handler, or a handler without a command, stops the boot here.
    const handlers = withAuditCheckpoints(
      this.registry.handlersFor(this.commands),
      new AuditCheckpointLogger(logger),
    );
    // Every surface's refused writes, the runner's checks and the use cases' alike (decision 0092).
    const onRefused = refusedWritesRecorder({
      db: identity.auth.db,
      redis: this.redis,
      logger,
      keyPrefix: this.config.REDIS_KEY_PREFIX ?? 'gatehouse:',
    });
    const principal = (request: Parameters<typeof resolvePrincipal>[0]) =>
      resolvePrincipal(request, identity.auth);
    const complete = handlers['oauth.signIn.complete'];
    if (complete !== undefined)
      registerOAuthCallbackRoute(fastify, {
        complete,
        resolvePrincipal: principal,
        workerPools,
        redirectUri: this.oauth.redirectUri,
        connectionsUrl: this.oauth.connectionsUrl,
        logger,
        onRefused,
      });
    registerAuditExportRoute(fastify, {
      db: identity.auth.db,
      resolvePrincipal: principal,
      workerPools,
      logger,
    });
    await registerAdminSurfaces(fastify, {
      commands: this.commands,
      handlers,
      onRefused,
      resolvePrincipal: principal,
      logger,
      workerPools,
    });
  }
}
