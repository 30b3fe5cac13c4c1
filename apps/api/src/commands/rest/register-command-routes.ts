import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { COMMANDS, type CommandDefinition } from '@gatehouse/commands';
import type { Logger } from '@gatehouse/platform';
import type { WorkerPools } from '../../auth/pool-config';
import type { Principal } from '../../auth/principal';
import type { CommandHandler, CommandHandlers } from '../command-handler';
import { authorize, runCommand } from '../command-runner';
import { commandRequestInput } from './command-request-input';
import { commandRouteSchema } from './command-route-schema';
import { problemErrorHandler } from './problem-error-handler';
import { addStrictJsonParser } from '../../http/strict-json.body-parser';

export const MAX_BODY_BYTES = 1024 * 1024;

export interface CommandSurfaceOptions {
  /** Use case per command name; registration fails when a command has none. */
  readonly handlers: CommandHandlers;
  /**
   * Who is calling: null when the request carries no valid credential. Must refuse a cookie-authenticated
   * write without the CSRF token by throwing (identity's `resolvePrincipal` throws `csrf_failed`), so every
   * route and /graphql get the check by resolving the caller.
   */
  readonly resolvePrincipal: (request: FastifyRequest) => Promise<Principal | null>;
  readonly logger: Logger;
  /** The operator's WORKER_POOLS: worker and gateway tokens' pools are re-checked against it on every call. */
  readonly workerPools: WorkerPools;
  /** Defaults to every command in the registry. */
  readonly commands?: readonly CommandDefinition[];
}

/** Looks up every command's handler up front, so a command without a use case stops the boot, not a request. */
export function handlersFor(
  commands: readonly CommandDefinition[],
  handlers: CommandHandlers,
): Map<CommandDefinition, CommandHandler> {
  const bound = new Map<CommandDefinition, CommandHandler>();
  const missing: string[] = [];
  for (const command of commands) {
    const handler = Object.hasOwn(handlers, command.name) ? handlers[command.name] : undefined;
    if (handler === undefined) missing.push(command.name);
    else bound.set(command, handler);
  }
  if (missing.length > 0) throw new Error(`commands without a handler: ${missing.join(', ')}`);
  return bound;
}

const ACCEPT_ANYTHING = () => () => true;
const PLAIN_JSON = () => (data: unknown) => JSON.stringify(data);

/**
 * One Fastify route per command (method + path from the registry), in an encapsulated plugin with its own
 * error handler and body parsing: JSON only (415 otherwise), at most 1 MiB (413), prototype poisoning refused.
 * Fastify's ajv validation and fast-json-stringify are switched off for these routes: zod validates the input
 * and parses the output, so the error shapes are ours and nothing undeclared is serialized.
 *
 * Register @fastify/swagger before this, so the routes appear in the OpenAPI document.
 */
export async function registerCommandRoutes(
  fastify: FastifyInstance,
  options: CommandSurfaceOptions,
): Promise<void> {
  const commands = options.commands ?? COMMANDS;
  const bound = handlersFor(commands, options.handlers);

  await fastify.register(async (scope) => {
    scope.setErrorHandler(problemErrorHandler(options.logger));
    scope.removeAllContentTypeParsers();
    addStrictJsonParser(scope, MAX_BODY_BYTES);

    for (const [command, handler] of bound) {
      scope.route({
        method: command.http.method,
        url: command.http.path,
        schema: commandRouteSchema(command),
        exposeHeadRoute: false,
        bodyLimit: MAX_BODY_BYTES,
        validatorCompiler: ACCEPT_ANYTHING,
        serializerCompiler: PLAIN_JSON,
        handler: async (request: FastifyRequest, reply: FastifyReply) => {
          // The request's shape first, like body parsing: a body that is no object is a 400 for anyone.
          const rawInput = commandRequestInput(command, request);
          const principal = await options.resolvePrincipal(request);
          authorize(command, principal, options.workerPools);
          const output = await runCommand({
            command,
            handler,
            principal,
            rawInput,
            workerPools: options.workerPools,
          });
          if (command.revealsSecret) reply.header('cache-control', 'no-store');
          const status = command.http.successStatus ?? 200;
          if (status === 204) return reply.code(204).send();
          return reply.code(status).type('application/json; charset=utf-8').send(output);
        },
      });
    }
  });
}
