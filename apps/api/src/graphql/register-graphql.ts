import type { FastifyInstance, FastifyRequest } from 'fastify';
import mercurius from 'mercurius';
import { COMMANDS, surfacesOf } from '@gatehouse/commands';
import type { Principal } from '../auth/principal';
import {
  handlersFor,
  MAX_BODY_BYTES,
  undeclaredProblemReporter,
  type CommandSurfaceOptions,
} from '../admin-surfaces/rest/register-command-routes';
import { buildCommandSchema, type CommandGraphQLContext } from './command-schema-builder';
import { graphqlErrorFormatter } from './graphql-error-formatter';
import { operationSelectionRule } from './operation-selection-rule';
import { queryCostRules } from './query-cost-rule';
import { rootFieldLimitRule } from './root-field-limit-rule';
import { findRefusedCharacter, invalidCharacters } from '../http/nul-character.guard';
import { ProblemError } from '@gatehouse/platform';
import { addStrictJsonParser } from '../http/strict-json-body-parser';

export const GRAPHQL_PATH = '/graphql';
// The command types are acyclic and at most three levels deep; the bound is set by the standard introspection
// query (depth 15), which the cross-tenant harness and GraphQL tooling rely on.
const MAX_QUERY_DEPTH = 16;

type Resolution = { principal: Principal | null; failure?: unknown };

/**
 * GraphQL at /graphql (mercurius), its schema generated from the command registry (command-schema-builder).
 * JSON bodies only (and `application/graphql`), at most 1 MiB; no batching, no IDE, bounded query depth,
 * at most MAX_ROOT_FIELDS root fields per operation (aliases included), bounded aliases, selections and
 * estimated answer size (query-cost-rule), the operation chosen by `operationName` checked before anything runs
 * (operation-selection-rule). The rules read the request's variables and operation name, so mercurius validates
 * every request (its query cache is off: it would skip validation for a document seen before).
 * Every non-GET request resolves the caller in a preHandler, before execution; resolving runs the identity
 * module's CSRF check (resolvePrincipal throws `csrf_failed`), so a cookie-authenticated POST without the CSRF
 * token never reaches a resolver. Mutations over GET are refused by mercurius itself.
 */
export async function registerGraphQL(
  fastify: FastifyInstance,
  options: CommandSurfaceOptions,
): Promise<void> {
  const schema = buildCommandSchema(
    handlersFor(
      (options.commands ?? COMMANDS).filter((command) => surfacesOf(command).graphql),
      options.handlers,
    ),
    options.workerPools,
    undeclaredProblemReporter(options),
    options.onRefused,
  );
  const resolved = new WeakMap<FastifyRequest, Resolution>();

  async function resolve(request: FastifyRequest): Promise<Resolution> {
    const known = resolved.get(request);
    if (known !== undefined) return known;
    let resolution: Resolution;
    try {
      resolution = { principal: await options.resolvePrincipal(request) };
    } catch (failure) {
      resolution = { principal: null, failure };
    }
    resolved.set(request, resolution);
    return resolution;
  }

  await fastify.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    addStrictJsonParser(scope, MAX_BODY_BYTES);
    await scope.register(mercurius, {
      schema,
      path: GRAPHQL_PATH,
      graphiql: false,
      queryDepth: MAX_QUERY_DEPTH,
      cache: false,
      validationRules: ({ variables, operationName }) => [
        rootFieldLimitRule(),
        operationSelectionRule(operationName),
        ...queryCostRules({ variables, operationName }),
      ],
      allowBatchedQueries: false,
      errorFormatter: graphqlErrorFormatter(options.logger),
      // Never throws: mercurius also builds the context inside its error handler (e.g. for malformed JSON).
      context: async (request): Promise<CommandGraphQLContext> => {
        const resolution = await resolve(request);
        if (resolution.failure !== undefined)
          return { principal: null, authenticationFailure: resolution.failure };
        return { principal: resolution.principal };
      },
      additionalRouteOptions: {
        bodyLimit: MAX_BODY_BYTES,
        exposeHeadRoute: false,
        preHandler: async (request) => {
          refuseNonDocumentQuery(request);
          if (request.method === 'GET') {
            refuseNulInGetVariables(request);
            return;
          }
          const resolution = await resolve(request);
          if (resolution.failure !== undefined) throw resolution.failure;
        },
      },
    });
  });
}

/**
 * mercurius reads a `query` that graphql cannot parse but JSON can (`{}`, `[]`, a number) as a ready-made
 * document AST, which then fails inside graphql-js (a 500). No GraphQL document is valid JSON, so such text is
 * refused here as what it is: not a document. A missing `query` is left to mercurius (a 400 of its own).
 */
function refuseNonDocumentQuery(request: FastifyRequest): void {
  const carrier = request.method === 'GET' ? request.query : request.body;
  if (typeof carrier !== 'object' || carrier === null || Array.isArray(carrier)) return;
  const source = (carrier as { query?: unknown }).query;
  if (source === undefined || source === null) return;
  if (typeof source !== 'string' || isJsonText(source)) {
    throw new ProblemError({
      status: 400,
      code: 'validation_failed',
      title: 'Validation failed',
      detail: 'The query is not a GraphQL document.',
    });
  }
}

function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The root NUL guard sees a GET's `variables` as JSON text, where NUL is still the escape `\u0000`: decode it
 * here as mercurius will. Text that is not JSON is left for mercurius to refuse.
 */
function refuseNulInGetVariables(request: FastifyRequest): void {
  const variables = (request.query as { variables?: unknown } | undefined)?.variables;
  if (typeof variables !== 'string') return;
  let decoded: unknown;
  try {
    decoded = JSON.parse(variables);
  } catch {
    return;
  }
  const refused = findRefusedCharacter(decoded);
  if (refused !== null) throw invalidCharacters(refused);
}
