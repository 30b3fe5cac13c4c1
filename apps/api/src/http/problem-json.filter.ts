import { PROBLEM_CONTENT_TYPE, toProblem, type Logger } from '@gatehouse/platform';
import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The one exception filter: everything thrown while handling a request, and Fastify's own errors (bad JSON,
 * body too large, unknown route) that Nest routes here, becomes RFC 9457 problem+json. Only ProblemError
 * text reaches the client; anything unexpected is logged and answered with a generic 500.
 */
@Catch()
export class ProblemJsonFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const { problem, unexpected } = toProblem(exception);
    if (unexpected) {
      this.logger.error(
        { err: exception, reqId: request.id, route: request.routeOptions?.url ?? 'unmatched' },
        'request failed',
      );
    }
    if (reply.sent) return;
    void reply.status(problem.status).type(PROBLEM_CONTENT_TYPE).send(problem);
  }
}
