import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { PROBLEM_CONTENT_TYPE } from '../errors/problem-error.js';
import { toProblem } from '../errors/problem-mapping.js';

/**
 * For plain Fastify instances (the identity and surfaces test harnesses; apps are built by createServiceApp,
 * whose ProblemJsonExceptionFilter does the same): every error and unknown route answers problem+json.
 * Faults of ours (5xx) are logged with the error and answered with a generic detail.
 */
export function installProblemJsonHandlers(app: FastifyInstance, logger: Logger): void {
  app.setErrorHandler((error, request, reply) => {
    const { problem, unexpected } = toProblem(error);
    if (unexpected) logger.error({ err: error, reqId: request.id }, 'request failed');
    return reply.status(problem.status).type(PROBLEM_CONTENT_TYPE).send(problem);
  });
  app.setNotFoundHandler((_request, reply) => {
    const { problem } = toProblem({ statusCode: 404 });
    return reply.status(404).type(PROBLEM_CONTENT_TYPE).send(problem);
  });
}
