import type { Socket } from 'node:net';
import { PROBLEM_CONTENT_TYPE, ProblemError, toProblem, type Logger } from '@gatehouse/platform';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

// What Fastify and Node answer by themselves, before any route or hook of ours runs, follows the error
// contract too: the router's refusals (a path parameter over maxParamLength: 414; a malformed URL: 400) and
// the HTTP parser's (a request it cannot parse: 400; headers over the size limit: 431; a request timeout: 408).
// Their default answers are Fastify's own JSON, which may echo the path.

/** Fastify's `frameworkErrors` option: the router's refusals as problem+json (nothing of the URL echoed). */
export function problemFrameworkErrors(logger: Logger) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const { problem, unexpected } = toProblem(error);
    if (unexpected) logger.error({ err: error, reqId: request.id }, 'request failed in the router');
    void reply.status(problem.status).type(PROBLEM_CONTENT_TYPE).send(problem);
  };
}

const CLIENT_ERROR_STATUS: Readonly<Record<string, number>> = {
  HPE_HEADER_OVERFLOW: 431,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

/**
 * Fastify's `clientErrorHandler` option: a request Node's HTTP parser refused, answered as problem+json on the
 * raw socket (there is no request object yet), then the connection is closed, as Node itself does.
 */
export function problemClientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status = CLIENT_ERROR_STATUS[error.code ?? ''] ?? 400;
  const { problem } = toProblem({ statusCode: status });
  const body = JSON.stringify(problem);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${problem.title}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/**
 * Fastify's `http` option. Node refuses an HTTP/1.1 request without Host itself, with an empty 400 that no
 * handler of ours sees; this turns that off so the hook below refuses it as problem+json instead.
 */
export const HTTP_SERVER_OPTIONS = { requireHostHeader: false } as const;

/** A root hook: an HTTP/1.1 request without Host is a 400 `bad_request` (RFC 9112), as Node would answer. */
export function installHostHeaderRequirement(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', async (request: FastifyRequest) => {
    const { httpVersionMajor, httpVersionMinor } = request.raw;
    const http11 = httpVersionMajor > 1 || (httpVersionMajor === 1 && httpVersionMinor >= 1);
    if (http11 && request.headers.host === undefined) {
      throw new ProblemError({
        status: 400,
        code: 'bad_request',
        title: 'Bad request',
        detail: 'An HTTP/1.1 request names its Host.',
      });
    }
  });
}
