import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { PROBLEM_CONTENT_TYPE } from '../errors/problem-error.js';
import { toProblem } from '../errors/problem-mapping.js';
import { logMappedProblem, problemHeaders } from './problem-reply.js';

/**
 * For plain Fastify instances (the identity and surfaces test harnesses; apps are built by createServiceApp,
 * whose ProblemJsonExceptionFilter does the same): every error and unknown route answers problem+json.
 * Faults of ours (5xx) are logged with the error and answered with a generic detail; a dependency momentarily
 * away is 503 with Retry-After and a warn line.
 */
export function installProblemJsonHandlers(app: FastifyInstance, logger: Logger): void {
  app.setErrorHandler((error, request, reply) => {
    const mapped = toProblem(error);
    logMappedProblem(logger, mapped, error, { reqId: request.id }, 'request failed');
    return reply
      .status(mapped.problem.status)
      .headers(problemHeaders(mapped))
      .type(PROBLEM_CONTENT_TYPE)
      .send(mapped.problem);
  });
  app.setNotFoundHandler((_request, reply) => {
    const { problem } = toProblem({ statusCode: 404 });
    return reply.status(404).type(PROBLEM_CONTENT_TYPE).send(problem);
  });
}
