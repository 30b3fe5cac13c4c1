import { COMMANDS, type CommandDefinition } from '@gatehouse/commands';
import { RedisConnections } from '@gatehouse/coordination';
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
import { admissionLogOf } from './admission/admission-log.js';
import { AppModule } from './app.module.js';
import { identitySettingsOf } from './auth/identity.config.js';
import { CommandFeaturesModule } from './command-features.module.js';
import { apiConfigSchema, type ApiConfig } from './config/api.config.js';
import { createDefinitionCipher } from './effective-view/definition-cipher.js';
import { ApiRoutesModule } from './infrastructure/api-routes.module.js';
import { CommandDepsModule, commandDepsOf } from './infrastructure/command-deps.module.js';
import {
  HTTP_SERVER_OPTIONS,
  installHostHeaderRequirement,
  problemClientErrorHandler,
  problemFrameworkErrors,
} from './http/framework-errors.js';
import { installNulCharacterGuard } from './http/nul-character.guard.js';

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
  const connections = new RedisConnections({ url: config.REDIS_URL, app: 'api', logger });
  const redis = connections.open('command');
  const release = async () => {
    await Promise.allSettled([database.close(), connections.close()]);
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
          infrastructure: { config, logger, database, connections, redis, metrics },
          imports: [
            CommandDepsModule.forRoot(
              commandDepsOf({
                workerPools: identitySettingsOf(config).workerPools,
                definitionCipher: createDefinitionCipher(config, logger),
                admissionLog: admissionLogOf(logger),
                egressResolver: deps.egressResolver,
              }),
            ),
            CommandFeaturesModule,
            // Sign-in, the invitation link, the OAuth callback, the audit export and the command surfaces.
            ApiRoutesModule.forRoot({
              identity: {
                nodeEnv: config.NODE_ENV,
                trustedProxies: config.TRUSTED_PROXIES,
                sessionPolicy: identitySettingsOf(config).sessionPolicy,
                ...(config.REDIS_KEY_PREFIX === undefined ? {} : { redisKeyPrefix: config.REDIS_KEY_PREFIX }),
              },
              commands: deps.commands ?? COMMANDS,
            }),
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
