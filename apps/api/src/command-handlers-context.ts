import { COMMANDS, type CommandDefinition } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import type { Logger } from '@gatehouse/platform';
import { Module, type DynamicModule, type ModuleMetadata } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { RedisConnections } from '@gatehouse/coordination';
import { CommandFeaturesModule } from './command-features.module.js';
import type { CommandHandlers } from './commands/command-handler.js';
import { CommandHandlerRegistry } from './admin-surfaces/registry/command-handler-registry.js';
import {
  CommandDepsModule,
  commandDepsOf,
  type CommandDepsOptions,
} from './infrastructure/command-deps.module.js';
import type { Redis } from 'ioredis';
import type { ApiConfig } from './config/api.config.js';
import { API_CONFIG, DATABASE, LOGGER, REDIS } from './infrastructure/infrastructure-tokens.js';

export interface CommandHandlerContextOptions extends CommandDepsOptions {
  readonly database: Database;
  /** What the feature modules inject besides the database, as createApiApp provides it. */
  readonly infrastructure: { readonly config: ApiConfig; readonly logger: Logger; readonly redis: Redis };
  /** Further modules whose `@HandlesCommand` providers join the discovery (a test's throwaway command). */
  readonly imports?: ModuleMetadata['imports'];
  /** The registry to bind; COMMANDS by default. */
  readonly commands?: readonly CommandDefinition[];
}

export interface CommandHandlerContext {
  readonly handlers: CommandHandlers;
  /** Closes the Nest context (the database stays the caller's). */
  close(): Promise<void>;
}

@Module({})
class CommandContextRoot {}

@Module({})
class InfrastructureValuesModule {
  static of(options: CommandHandlerContextOptions): DynamicModule {
    const { config, logger, redis } = options.infrastructure;
    return {
      module: InfrastructureValuesModule,
      global: true,
      providers: [
        { provide: DATABASE, useValue: options.database },
        { provide: API_CONFIG, useValue: config },
        { provide: LOGGER, useValue: logger },
        { provide: REDIS, useValue: redis },
        // Dedicated connections (the change notifier's subscriber) are opened and closed by their owners.
        {
          provide: RedisConnections,
          useFactory: () => new RedisConnections({ url: config.REDIS_URL, app: 'api', logger }),
        },
      ],
      exports: [DATABASE, API_CONFIG, LOGGER, REDIS, RedisConnections],
    };
  }
}

/**
 * The command use cases as the API builds them (the same feature modules, discovered the same way), in a Nest
 * application context without HTTP: for surfaces mounted on a plain Fastify instance (the integration
 * harnesses) and the CLI. Throws CommandBindingError when the discovered handlers do not match the registry.
 */
export async function createCommandHandlerContext(
  options: CommandHandlerContextOptions,
): Promise<CommandHandlerContext> {
  const root: DynamicModule = {
    module: CommandContextRoot,
    imports: [
      InfrastructureValuesModule.of(options),
      CommandDepsModule.forRoot(commandDepsOf(options)),
      CommandFeaturesModule,
      ...(options.imports ?? []),
    ],
  };
  const context = await NestFactory.createApplicationContext(root, { logger: false, abortOnError: false });
  try {
    const handlers = context.get(CommandHandlerRegistry).handlersFor(options.commands ?? COMMANDS);
    return { handlers, close: () => context.close() };
  } catch (error) {
    await context.close();
    throw error;
  }
}
