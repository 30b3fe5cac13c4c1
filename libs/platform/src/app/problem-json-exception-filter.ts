import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { PROBLEM_CONTENT_TYPE } from '../errors/problem-error.js';
import { toProblem } from '../errors/problem-mapping.js';
import { logMappedProblem, problemHeaders } from '../http/problem-reply.js';

/**
 * The default exception filter of every app built by createServiceApp: everything thrown while handling a
 * request, and Fastify's own errors that Nest routes here (bad JSON, body too large, unknown route), becomes
 * RFC 9457 problem+json. Only ProblemError text reaches the client; anything unexpected is logged and answered
 * with a generic 500; a dependency momentarily away gets 503 with Retry-After and a warn line.
 */
@Catch()
export class ProblemJsonExceptionFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const mapped = toProblem(exception);
    logMappedProblem(
      this.logger,
      mapped,
      exception,
      { reqId: request.id, route: request.routeOptions?.url ?? 'unmatched' },
      'request failed',
    );
    if (reply.sent) return;
    void reply
      .status(mapped.problem.status)
      .headers(problemHeaders(mapped))
      .type(PROBLEM_CONTENT_TYPE)
      .send(mapped.problem);
  }
}
