import { COMMANDS, type CommandDefinition } from '@gatehouse/commands';
import { closeRedis, createRedisConnection } from '@gatehouse/coordination';
import { UnsafeDatabaseRoleError, createDatabase } from '@gatehouse/db';
import type { Resolver } from '@gatehouse/egress';
import {
  BootRefusedError,
  createLogger,
  createMetricsRegistry,
  createServiceApp,
  redisCheck,
  secretConfigKeys,
  secretConfigValues,
  type Logger,
} from '@gatehouse/platform';
import type { ModuleMetadata } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Redis } from 'ioredis';
import { admissionLogOf } from './admission/admission.log.js';
import { AppModule } from './app.module.js';
import { AuditCheckpointLogger } from './audit/audit-checkpoint.logger.js';
import { withAuditCheckpoints } from './audit/audit-checkpointed.handlers.js';
import { registerAuditExportRoute } from './audit/audit-export.routes.js';
import { refusedWritesRecorder } from './audit/refused-writes.recorder.js';
import { registerAuthRoutes } from './auth/auth.routes.js';
import { identitySettingsOf } from './auth/identity.config.js';
import { IdentityAuthModule } from './auth/identity-auth.module.js';
import type { IdentityDeps } from './auth/identity.deps.js';
import { IDENTITY_DEPS } from './auth/identity.tokens.js';
import { resolvePrincipal } from './auth/resolve-principal.js';
import { CommandFeaturesModule } from './command-features.module.js';
import { CommandHandlerRegistry } from './admin-surfaces/registry/command-handler.registry.js';
import { registerInvitationLinkRoutes } from './tenancy/invitation-link.routes.js';
import { registerAdminSurfaces } from './admin-surfaces/register-admin-surfaces.js';
import { apiConfigSchema, type ApiConfig } from './config/api.config.js';
import { createDefinitionCipher } from './definitions/definition-cipher.js';
import { CommandDepsModule, commandDepsOf } from './infrastructure/command-deps.module.js';
import {
  HTTP_SERVER_OPTIONS,
  installHostHeaderRequirement,
  problemClientErrorHandler,
  problemFrameworkErrors,
} from './http/framework-errors.js';
import { installNulCharacterGuard } from './http/nul-character.guard.js';
import { registerOAuthCallbackRoute } from './oauth/oauth-callback.routes.js';
import { OAUTH_RUNTIME, type OAuthRuntime } from './oauth/oauth-runtime.js';

/** Request bodies above this are refused with 413 before they are parsed. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

export type ApiAppDeps = {
  /** The logger to use; by default one built from the config (JSON on stdout). */
  logger?: Logger;
  /** Further Nest modules to mount. */
  imports?: ModuleMetadata['imports'];
  /** DNS for URL admission; by default createDnsResolver, bounded in time (tests pass a fixed table). */
  egressResolver?: Resolver;
  /** The registry the surfaces are generated from; COMMANDS by default (a test adds a throwaway command). */
  commands?: readonly CommandDefinition[];
  /** Connections of the Prisma pool (createDatabase's default when absent); a test starves it with 1. */
  databasePoolMax?: number;
};

/** The API's logger: redacts the secret config variables by name and scrubs their values from every line. */
export function createApiLogger(config: ApiConfig): Logger {
  return createLogger({
    name: 'api',
    level: config.LOG_LEVEL,
    secretKeys: secretConfigKeys(apiConfigSchema),
    secretValues: secretConfigValues(apiConfigSchema, config),
  });
}

/**
 * Builds and initializes the API without listening: main.ts listens, tests use `app.inject()`.
 * Refuses (BootRefusedError, one line) when DATABASE_URL's role could bypass row-level security.
 * Closing the app drains HTTP and then closes the Postgres pool and the Redis connection.
 */
export async function createApiApp(
  config: ApiConfig,
  deps: ApiAppDeps = {},
): Promise<NestFastifyApplication> {
  const logger = deps.logger ?? createApiLogger(config);
  const database = createDatabase({
    url: config.DATABASE_URL,
    ...(deps.databasePoolMax !== undefined ? { poolMax: deps.databasePoolMax } : {}),
    onPoolError: (error) => logger.warn({ err: error }, 'idle postgres connection failed'),
  });
  const redis = createRedisConnection({ url: config.REDIS_URL, name: 'api', purpose: 'command', logger });
  const release = async () => {
    await Promise.allSettled([database.close(), closeRedis(redis)]);
  };

  try {
    await database.assertSafeAppRole();
  } catch (error) {
    await release();
    throw roleCheckRefusal(error);
  }

  const metrics = createMetricsRegistry({ app: 'api' });
  try {
    // The one way an app is built (libs/platform): request logging and metrics, draining, /healthz, /readyz
    // and /metrics. The API adds its own root hooks, framework error answers, filter and Fastify routes.
    return await createServiceApp({
      logger,
      metrics,
      imports: [
        AppModule.forRoot({
          infrastructure: { config, logger, database, redis, metrics },
          imports: [
            CommandDepsModule.forRoot(
              commandDepsOf({
                workerPools: identitySettingsOf(config).workerPools,
                definitionCipher: createDefinitionCipher(config, logger),
                admissionLog: admissionLogOf(logger),
                egressResolver: deps.egressResolver,
              }),
            ),
            IdentityAuthModule.forRoot({
              nodeEnv: config.NODE_ENV,
              trustedProxies: config.TRUSTED_PROXIES,
              sessionPolicy: identitySettingsOf(config).sessionPolicy,
              ...(config.REDIS_KEY_PREFIX === undefined ? {} : { redisKeyPrefix: config.REDIS_KEY_PREFIX }),
            }),
            CommandFeaturesModule,
            ...(deps.imports ?? []),
          ],
        }),
      ],
      readiness: { postgres: () => database.ping(), redis: redisCheck(redis) },
      bodyLimit: BODY_LIMIT_BYTES,
      fastify: {
        // The router's and the HTTP parser's own refusals (414, 400, 431) answer problem+json too.
        frameworkErrors: problemFrameworkErrors(logger),
        clientErrorHandler: problemClientErrorHandler,
        http: HTTP_SERVER_OPTIONS,
      },
      // Root hooks before any route (Nest's, sign-in, REST, GraphQL): NUL and lone surrogates, and an HTTP/1.1
      // request without Host, are refused before any handler.
      rootHooks: (fastify) => {
        installNulCharacterGuard(fastify);
        installHostHeaderRequirement(fastify);
      },
      beforeInit: (app) =>
        registerIdentityAndCommands(app, { config, logger, redis, commands: deps.commands ?? COMMANDS }),
    });
  } catch (error) {
    await release();
    throw error;
  }
}

/** One line for main to print. A driver error's text could echo connection details, so only its code is kept. */
function roleCheckRefusal(error: unknown): BootRefusedError {
  if (error instanceof UnsafeDatabaseRoleError)
    return new BootRefusedError(`api: ${error.message}`, { cause: error });
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  const label = typeof code === 'string' ? code : error instanceof Error ? error.name : 'unknown error';
  return new BootRefusedError(
    `api: refusing to start: cannot check the database role through DATABASE_URL (${label})`,
    {
      cause: error,
    },
  );
}

type SurfaceDeps = {
  config: ApiConfig;
  logger: Logger;
  redis: Redis;
  commands: readonly CommandDefinition[];
};

/**
 * Sign-in routes and everything generated from the command registry (REST under /v1, OpenAPI at /docs,
 * GraphQL at /graphql), registered on Nest's Fastify instance after Nest's own modules were created and
 * before init, so routes collected through onRoute (the cross-tenant harness) see them all.
 */
async function registerIdentityAndCommands(app: NestFastifyApplication, deps: SurfaceDeps): Promise<void> {
  const { config, logger, redis, commands } = deps;
  const settings = identitySettingsOf(config);
  // Sign-in and sign-out are IdentityAuthModule's providers; the routes take what it assembled.
  const identity = app.get<IdentityDeps>(IDENTITY_DEPS, { strict: false });
  const fastify = app.getHttpAdapter().getInstance();
  registerAuthRoutes(fastify, identity);
  registerInvitationLinkRoutes(fastify, identity);
  // The use cases are the feature modules' providers, discovered by their @HandlesCommand mark; a command
  // without exactly one handler, or a handler without a command, stops the boot here.
  const handlers = withAuditCheckpoints(
    app.get(CommandHandlerRegistry).handlersFor(commands),
    new AuditCheckpointLogger(logger),
  );
  // Every surface's refused writes, the runner's checks and the use cases' alike (decision 0092).
  const onRefused = refusedWritesRecorder({
    db: identity.auth.db,
    redis,
    logger,
    keyPrefix: config.REDIS_KEY_PREFIX ?? 'gatehouse:',
  });
  const complete = handlers['oauth.signIn.complete'];
  if (complete !== undefined)
    registerOAuthCallbackRoute(fastify, {
      complete,
      resolvePrincipal: (request) => resolvePrincipal(request, identity.auth),
      workerPools: settings.workerPools,
      redirectUri: app.get<OAuthRuntime>(OAUTH_RUNTIME, { strict: false }).redirectUri,
      connectionsUrl: app.get<OAuthRuntime>(OAUTH_RUNTIME, { strict: false }).connectionsUrl,
      logger,
      onRefused,
    });
  registerAuditExportRoute(fastify, {
    db: identity.auth.db,
    resolvePrincipal: (request) => resolvePrincipal(request, identity.auth),
    workerPools: settings.workerPools,
    logger,
  });
  await registerAdminSurfaces(fastify, {
    commands,
    handlers,
    onRefused,
    resolvePrincipal: (request) => resolvePrincipal(request, identity.auth),
    logger,
    workerPools: settings.workerPools,
  });
}
