import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { HttpMetrics } from '../metrics/metrics-registry.js';

export type HttpObservabilityOptions = {
  logger: Logger;
  metrics: HttpMetrics;
  /** Route patterns logged at debug instead of info (probes and scrapes every few seconds). */
  quietRoutes?: readonly string[];
};

export const DEFAULT_QUIET_ROUTES: readonly string[] = Object.freeze(['/healthz', '/readyz', '/metrics']);

/**
 * One log line and one histogram observation per response. Logs the route pattern, never the URL: no query
 * string, no ids in paths, and no headers.
 */
export function installHttpObservability(app: FastifyInstance, options: HttpObservabilityOptions): void {
  const quiet = new Set(options.quietRoutes ?? DEFAULT_QUIET_ROUTES);
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const durationMs = reply.elapsedTime;
    options.metrics.observe({
      method: request.method,
      route,
      statusCode: reply.statusCode,
      durationSeconds: durationMs / 1000,
    });
    const line = {
      reqId: request.id,
      method: request.method,
      route,
      statusCode: reply.statusCode,
      durationMs: Math.round(durationMs * 10) / 10,
    };
    if (quiet.has(route)) options.logger.debug(line, 'request completed');
    else options.logger.info(line, 'request completed');
  });
}
