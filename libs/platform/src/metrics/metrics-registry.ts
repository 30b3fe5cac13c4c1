import { Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export type { Registry } from 'prom-client';

export type CreateMetricsRegistryOptions = {
  /** Added as the `app` label on every series, so one Prometheus job can scrape all three apps. */
  app: string;
  /** Process and Node.js runtime metrics (CPU, memory, event loop lag, GC). On by default. */
  defaultMetrics?: boolean;
};

/** A registry per app instance (never prom-client's global one), so tests can build apps side by side. */
export function createMetricsRegistry(options: CreateMetricsRegistryOptions): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ app: options.app });
  if (options.defaultMetrics !== false) collectDefaultMetrics({ register: registry });
  return registry;
}

export type HttpObservation = {
  method: string;
  /** The route pattern (`/v1/workspaces/:id`), never the URL: bounded label values, no ids, no query. */
  route: string;
  statusCode: number;
  durationSeconds: number;
};

export type HttpMetrics = { observe(observation: HttpObservation): void };

export const HTTP_REQUEST_DURATION_METRIC = 'http_request_duration_seconds';

/** The request-duration histogram every HTTP app exposes. */
export function createHttpMetrics(registry: Registry): HttpMetrics {
  const histogram = new Histogram({
    name: HTTP_REQUEST_DURATION_METRIC,
    help: 'HTTP request duration in seconds, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return {
    observe({ method, route, statusCode, durationSeconds }) {
      histogram.observe({ method, route, status_code: String(statusCode) }, durationSeconds);
    },
  };
}
