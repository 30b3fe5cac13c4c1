import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import {
  PROBLEM_CONTENT_TYPE,
  logMappedProblem,
  problemHeaders,
  toProblem,
  type Logger,
} from '@gatehouse/platform';

/**
 * Fastify error handler for routes registered directly on Fastify (they bypass Nest's exception filters):
 * the same `toProblem` mapping as the app's filter, so body-parsing errors (413, malformed JSON, 415) and our
 * ProblemErrors get one problem+json shape. Faults of ours are logged and answered generically; a dependency
 * momentarily away is 503 with Retry-After and a warn line.
 */
export function problemErrorHandler(logger: Logger) {
  return (error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) => {
    const mapped = toProblem(error);
    logMappedProblem(
      logger,
      mapped,
      error,
      { reqId: request.id, route: request.routeOptions.url },
      'request failed',
    );
    return reply
      .status(mapped.problem.status)
      .headers(problemHeaders(mapped))
      .type(PROBLEM_CONTENT_TYPE)
      .send(mapped.problem);
  };
}
