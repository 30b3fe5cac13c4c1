import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { COMMANDS, successStatusOf, surfacesOf, type CommandDefinition } from '@gatehouse/commands';
import type { Logger } from '@gatehouse/platform';
import type { WorkerPools } from '../../auth/pool-config';
import type { Principal } from '../../auth/principal';
import type { CommandHandler, CommandHandlers } from '../../commands/command-handler';
import { runCommandForResult, type RefusalObserver } from '../../commands/command-runner';
import type { LongPollWait } from '../../commands/long-poll/await-change';
import { entityTagOf, ifNoneMatchHits } from '../../commands/long-poll/entity-tag';
import { waitSecondsOf } from '../../commands/long-poll/wait-query';
import { commandRequestInput } from './command-request-input';
import { commandRouteSchema } from './command-route-schema';
import { problemErrorHandler } from '../../commands/rest/problem-error-handler';
import { addStrictJsonParser } from '../../http/strict-json-body-parser';

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
  /**
   * A use case answered a problem code its declaration does not list: logged as an error by default (the code
   * is still answered). The integration harness makes it fail the test.
   */
  readonly onUndeclaredProblem?: (commandName: string, code: string) => void;
  /** Told of every typed refusal of an authenticated caller (the runner's checks and the use case's). */
  readonly onRefused?: RefusalObserver;
}

/** The runner's report of an undeclared problem code, as the surfaces log it by default. */
export function undeclaredProblemReporter(
  options: CommandSurfaceOptions,
): (name: string, code: string) => void {
  return (
    options.onUndeclaredProblem ??
    ((command, code) =>
      options.logger.error({ command, code }, 'command answered a problem code it does not declare'))
  );
}

/**
 * An AbortSignal that fires when the client goes away before the answer is complete (the response closes
 * unfinished): handed to the use case, so a long-poll or a slow read stops there.
 */
export function clientGoneSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const raw = reply.raw;
  raw.once('close', () => {
    if (!raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

/** `If-None-Match` as one string (Fastify gives a header sent twice as an array). */
function ifNoneMatchOf(request: FastifyRequest): string | undefined {
  const header = request.headers['if-none-match'];
  return Array.isArray(header) ? header.join(', ') : header;
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
  const commands = (options.commands ?? COMMANDS).filter((command) => surfacesOf(command).rest);
  const bound = handlersFor(commands, options.handlers);
  const onUndeclaredProblem = undeclaredProblemReporter(options);

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
          const waitSeconds = waitSecondsOf(command, request.query);
          // The runner authorizes before anything else reads the input (and reports a refusal once).
          const principal = await options.resolvePrincipal(request);
          const ifNoneMatch = command.read !== undefined ? ifNoneMatchOf(request) : undefined;
          const clientHasTag =
            ifNoneMatch !== undefined ? (tag: string) => ifNoneMatchHits(ifNoneMatch, tag) : undefined;
          const wait: LongPollWait | undefined =
            waitSeconds !== null && waitSeconds > 0 && clientHasTag !== undefined
              ? {
                  timeoutMs: waitSeconds * 1000,
                  isUnchanged: (output) => clientHasTag(entityTagOf(output)),
                  clientHasTag,
                }
              : undefined;
          const { output, tag: ownTag } = await runCommandForResult({
            command,
            handler,
            principal,
            rawInput,
            workerPools: options.workerPools,
            signal: clientGoneSignal(reply),
            ...(wait !== undefined ? { wait } : {}),
            ...(clientHasTag !== undefined ? { clientHasTag } : {}),
            onUndeclaredProblem,
            ...(options.onRefused !== undefined ? { onRefused: options.onRefused } : {}),
          });
          if (command.revealsSecret) reply.header('cache-control', 'no-store');
          if (command.read !== undefined) {
            // Per caller (the output is what this credential may see): private, and revalidated every time.
            // A TaggedRead names its version itself; otherwise the tag is the hash of the body.
            const tag = ownTag ?? entityTagOf(output);
            reply
              .header('etag', tag)
              .header('cache-control', 'private, no-cache')
              .header('vary', 'authorization, cookie');
            if (ifNoneMatchHits(ifNoneMatch, tag)) return reply.code(304).send();
          }
          const status = successStatusOf(command);
          if (status === 204) return reply.code(204).send();
          return reply.code(status).type('application/json; charset=utf-8').send(output);
        },
      });
    }
  });
}
