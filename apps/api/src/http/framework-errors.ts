import type { Socket } from 'node:net';
import { PROBLEM_CONTENT_TYPE, toProblem, type Logger } from '@gatehouse/platform';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

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
