import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { scanStrictJson } from '@gatehouse/definitions';
import { PROBLEM_CONTENT_TYPE, problemJson } from '@gatehouse/platform';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { bearerTokenOf } from '../auth/api-token-format';
import type { Principal } from '../auth/principal';
import {
  MAX_BODY_BYTES,
  undeclaredProblemReporter,
  type CommandSurfaceOptions,
} from '../admin-surfaces/rest/register-command-routes';
import { problemErrorHandler } from '../commands/rest/problem-error-handler';
import { forbiddenCaller, unauthenticated } from '../shared/command-problems';
import { createAdminServer, PRINCIPAL_KEY } from './admin-mcp-server';
import { adminToolTable } from './admin-tools';

// `/mcp/admin`: admin over MCP on the API's Fastify (decision 0112). Streamable HTTP, stateless: every POST is
// served by a throwaway Server and transport (JSON answers, no session id), so any API replica serves any
// request and nothing about a caller outlives its request. Before the transport, in this order: a bearer token
// (the API's own authentication; cookies never count here, so no CSRF question arises: 401 `unauthenticated`
// with WWW-Authenticate), a user or agent token (403 `forbidden_caller`: workers and the gateway have REST),
// then the method (GET and DELETE: 405, there is no session or stream to open or end) and the body (JSON-RPC
// -32700 for text that is no JSON or names a key twice).

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

  await fastify.register(async (scope) => {
    scope.setErrorHandler(problemErrorHandler(options.logger));
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
        const server = createAdminServer({
          ...serverOptions,
          // Merged by Node into the head the transport writes once the call is answered.
          answerHeaders: (headers) => {
            for (const [name, value] of Object.entries(headers))
              if (!reply.raw.headersSent) reply.raw.setHeader(name, value);
          },
        });
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true,
        });
        reply.raw.on('close', () => {
          void transport.close().catch(() => undefined);
          void server.close().catch(() => undefined);
        });
        const withAuth = Object.assign(request.raw, {
          auth: {
            token: '',
            clientId: principal.tokenId ?? '',
            scopes: [...principal.scopes],
            extra: { [PRINCIPAL_KEY]: principal },
          },
        });
        try {
          await server.connect(transport);
          await transport.handleRequest(withAuth, reply.raw, request.body);
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
