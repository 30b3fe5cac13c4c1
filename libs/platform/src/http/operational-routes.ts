import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { HealthChecks } from '../health/health-checks.js';

export type OperationalRoutesOptions = {
  health: HealthChecks;
  metrics: Registry;
};

/**
 * `/healthz` (liveness: the process serves HTTP, no dependency touched), `/readyz` (dependencies answer;
 * 503 with per-check status otherwise) and `/metrics` (Prometheus text) for the plain-Fastify apps. The API
 * serves the same three through Nest controllers.
 */
export function registerOperationalRoutes(app: FastifyInstance, options: OperationalRoutesOptions): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const report = await options.health.run();
    reply.header('cache-control', 'no-store');
    if (report.status !== 'ok') reply.status(503);
    return report;
  });
  app.get('/metrics', async (_request, reply) => {
    reply.header('content-type', options.metrics.contentType);
    return options.metrics.metrics();
  });
}
