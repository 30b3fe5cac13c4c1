import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { scanStrictJson } from '@gatehouse/definitions';
import { PROBLEM_CONTENT_TYPE, problemJson, webRequestOf, writeWebResponse } from '@gatehouse/platform';
import { bearerTokenOf } from '../auth/api-token-format';
import type { Principal } from '../auth/principal';
import {
  MAX_BODY_BYTES,
  undeclaredProblemReporter,
  type CommandSurfaceOptions,
} from '../admin-surfaces/rest/register-command-routes';
import { problemErrorHandler } from '../commands/rest/problem-error-handler';
import { forbiddenCaller, unauthenticated } from '../shared/command-problems';
import { createAdminMcpHandler } from './admin-mcp-handler';
import { ADMIN_EXCHANGE_KEY, createAdminServer, type AdminExchange } from './admin-mcp-server';
import { adminToolTable } from './admin-tools';

// `/mcp/admin`: admin over MCP on the API's Fastify (decisions 0112, 0145), for clients of both protocol eras on
// one URL. Stateless: every POST is served by a throwaway Server (JSON answers, no session id), so any API replica
// serves any request and nothing about a caller outlives its request. Before the MCP handler, in this order: a
// bearer token (the API's own authentication; cookies never count here, so no CSRF question arises: 401
// `unauthenticated` with WWW-Authenticate), a user or agent token (403 `forbidden_caller`: workers and the gateway
// have REST), then the method (GET and DELETE: 405, there is no session or stream to open or end) and the body
// (JSON-RPC -32700 for text that is no JSON or names a key twice). The request and its answer cross to the SDK as
// web-standard ones (libs/platform's web-exchange), the body already parsed and bounded here.

export const ADMIN_MCP_PATH = '/mcp/admin';

/** The credential kinds admin MCP serves. */
export const ADMIN_MCP_CALLERS: readonly Principal['via'][] = Object.freeze(['user', 'agent']);

const MALFORMED = Symbol('malformed JSON');
const WWW_AUTHENTICATE = 'Bearer realm="gatehouse"';

function jsonRpcError(reply: FastifyReply, status: number, code: number, message: string): FastifyReply {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

function refuse(reply: FastifyReply, problem: ReturnType<typeof problemJson>): FastifyReply {
  if (problem.status === 401) reply.header('www-authenticate', WWW_AUTHENTICATE);
  return reply.code(problem.status).type(PROBLEM_CONTENT_TYPE).send(problem);
}

export interface AdminMcpOptions extends CommandSurfaceOptions {
  /** serverInfo.version of the MCP server. */
  readonly version?: string;
}

export async function registerAdminMcp(fastify: FastifyInstance, options: AdminMcpOptions): Promise<void> {
  const table = adminToolTable(options.handlers, options.commands);
  const serverOptions = {
    table,
    workerPools: options.workerPools,
    logger: options.logger,
    serverInfo: { name: 'gatehouse-admin', version: options.version ?? '0.1.0' },
    onUndeclaredProblem: undeclaredProblemReporter(options),
    ...(options.onRefused !== undefined ? { onRefused: options.onRefused } : {}),
  };
  const handler = createAdminMcpHandler(
    () => createAdminServer(serverOptions),
    // Mostly a client's malformed request the SDK refused (its answer says why); a fault is also a 5xx, below.
    (error) => options.logger.debug({ err: error }, 'admin MCP: the SDK refused or failed a request'),
  );

  await fastify.register(async (scope) => {
    scope.setErrorHandler(problemErrorHandler(options.logger));
    scope.addHook('onClose', async () => handler.close());
    scope.removeAllContentTypeParsers();
    // The text is kept; JSON-RPC answers its own parse errors (-32700), not problem+json.
    const parseDefault = scope.getDefaultJsonParser('error', 'error');
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: MAX_BODY_BYTES },
      (
        request: FastifyRequest,
        body: string | Buffer,
        done: (error: Error | null, body?: unknown) => void,
      ) => {
        const text = typeof body === 'string' ? body : body.toString('utf8');
        parseDefault(request, text, (error: Error | null, parsed?: unknown) => {
          if (error !== null || scanStrictJson(text, Number.MAX_SAFE_INTEGER)?.reason === 'duplicate_key')
            return done(null, MALFORMED);
          done(null, parsed);
        });
      },
    );

    scope.route({
      method: ['POST', 'GET', 'DELETE'],
      url: ADMIN_MCP_PATH,
      bodyLimit: MAX_BODY_BYTES,
      exposeHeadRoute: false,
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        // Bearer only: with an Authorization header present, the API's authentication ignores the cookie.
        const bearer = bearerTokenOf(request.headers.authorization);
        const principal = typeof bearer === 'string' ? await options.resolvePrincipal(request) : null;
        if (principal === null) return refuse(reply, unauthenticated().toProblem());
        if (!ADMIN_MCP_CALLERS.includes(principal.via))
          return refuse(reply, forbiddenCaller(principal.via).toProblem());
        if (request.method !== 'POST')
          return jsonRpcError(
            reply.header('allow', 'POST'),
            405,
            -32000,
            'Method not allowed: POST only (stateless).',
          );
        if (request.body === MALFORMED) return jsonRpcError(reply, 400, -32700, 'Parse error');

        reply.hijack();
        const exchange: AdminExchange = {
          principal,
          // Merged by Node into the head written once the call is answered (both eras answer JSON, after it).
          answerHeaders: (headers) => {
            for (const [name, value] of Object.entries(headers))
              if (!reply.raw.headersSent) reply.raw.setHeader(name, value);
          },
        };
        // A client that goes away before its answer ends the exchange, and the call under it.
        const gone = new AbortController();
        reply.raw.once('close', () => gone.abort());
        try {
          const answer = await handler.fetch(webRequestOf(request.raw, gone.signal), request.body, {
            // The caller, never the token: the server reads who is asking from here.
            token: '',
            clientId: principal.tokenId ?? '',
            scopes: [...principal.scopes],
            extra: { [ADMIN_EXCHANGE_KEY]: exchange },
          });
          if (answer.status >= 500)
            options.logger.error({ status: answer.status }, 'admin MCP request failed');
          await writeWebResponse(answer, reply.raw);
        } catch (error) {
          options.logger.error({ err: error }, 'admin MCP request failed');
          if (!reply.raw.headersSent)
            reply.raw
              .writeHead(500, { 'content-type': PROBLEM_CONTENT_TYPE })
              .end(
                JSON.stringify(
                  problemJson({ status: 500, code: 'internal', title: 'Internal server error' }),
                ),
              );
          else reply.raw.end();
        }
      },
    });
  });
}
