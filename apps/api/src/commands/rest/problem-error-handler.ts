import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { PROBLEM_CONTENT_TYPE, toProblem, type Logger } from '@gatehouse/platform';

/**
 * Fastify error handler for routes registered directly on Fastify (they bypass Nest's exception filters):
 * the same `toProblem` mapping as the app's filter, so body-parsing errors (413, malformed JSON, 415) and our
 * ProblemErrors get one problem+json shape. Faults of ours are logged and answered generically.
 */
export function problemErrorHandler(logger: Logger) {
  return (error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) => {
    const { problem, unexpected } = toProblem(error);
    if (unexpected)
      logger.error({ err: error, reqId: request.id, route: request.routeOptions.url }, 'request failed');
    return reply.status(problem.status).type(PROBLEM_CONTENT_TYPE).send(problem);
  };
}
