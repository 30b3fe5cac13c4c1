import type { Server } from 'node:http';
import type { ExceptionFilter, ModuleMetadata } from '@nestjs/common';
import { Module, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyHttpOptions, FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { HealthCheck } from '../health/health-checks.js';
import { installConnectionDraining } from '../http/connection-draining.js';
import { installHttpObservability } from '../http/http-observability.js';
import { NestLoggerAdapter } from '../logger/nest-logger-adapter.js';
import { createHttpMetrics } from '../metrics/metrics-registry.js';
import { OperationalModule } from './operational.module.js';
import { ProblemJsonExceptionFilter } from './problem-json-exception-filter.js';
import { closingResourcesAfter, type ClosableResource } from './close-resources.js';

/** Fastify options an app may add to the ones every app gets (body limit, no proxy trust, no Fastify logger). */
export type ServiceFastifyOptions = Pick<
  FastifyHttpOptions<Server>,
  'frameworkErrors' | 'clientErrorHandler' | 'http'
>;

export interface ServiceAppOptions {
  readonly logger: Logger;
  /** The app's registry (createMetricsRegistry): request histogram, process metrics, the app's own. */
  readonly metrics: Registry;
  /** The app's own modules (its root module first). */
  readonly imports: NonNullable<ModuleMetadata['imports']>;
  /** Readiness checks by name, served at /readyz. */
  readonly readiness: Readonly<Record<string, HealthCheck>>;
  /** Connections and pools built before Nest, closed after HTTP has drained and every other hook ran. */
  readonly closeOnShutdown?: readonly ClosableResource[];
  /** Request bodies above this are refused with 413 before they are parsed. */
  readonly bodyLimit: number;
  /**
   * Route patterns whose request line is logged at debug, not info (still measured); DEFAULT_QUIET_ROUTES when
   * not given, so a list given here should include them.
   */
  readonly quietRoutes?: readonly string[];
  readonly fastify?: ServiceFastifyOptions;
  /** Root hooks of the app's own, added after logging and metrics and before any route (Nest's included). */
  readonly rootHooks?: (instance: FastifyInstance) => void;
  /** The one exception filter; ProblemJsonExceptionFilter by default. */
  readonly exceptionFilter?: ExceptionFilter;
  /** Runs after Nest created the modules and before init: routes registered on Fastify directly go here. */
  readonly beforeInit?: (app: NestFastifyApplication) => Promise<void> | void;
}

@Module({})
class ServiceRootModule {}

/**
 * The one way an app is built: a Nest application on Fastify with request logging and metrics on every route
 * (the 404 handler included), connection draining on close, /healthz, /readyz and /metrics, problem+json for
 * every error, Nest's own messages through the app's logger, and the app's resources closed last. Returns the
 * app initialized but not listening: main listens (runService), tests inject. Closing it drains HTTP, then runs
 * every provider's shutdown hooks, then closes closeOnShutdown's resources.
 */
export async function createServiceApp(options: ServiceAppOptions): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    ...options.fastify,
    bodyLimit: options.bodyLimit,
    trustProxy: false,
    logger: false,
  });
  const instance = adapter.getInstance();
  // Root hooks before any route exists, so every route (and the 404 handler) is logged and measured.
  installHttpObservability(instance, {
    logger: options.logger,
    metrics: createHttpMetrics(options.metrics),
    ...(options.quietRoutes === undefined ? {} : { quietRoutes: options.quietRoutes }),
  });
  installConnectionDraining(instance);
  options.rootHooks?.(instance);

  const root: DynamicModule = {
    module: ServiceRootModule,
    imports: [
      OperationalModule.forRoot({
        logger: options.logger,
        metrics: options.metrics,
        readiness: options.readiness,
      }),
      ...options.imports,
    ],
  };
  const app = await NestFactory.create<NestFastifyApplication>(root, adapter, {
    logger: new NestLoggerAdapter(options.logger.child({ component: 'nest' })),
    abortOnError: false,
  });
  app.useGlobalFilters(options.exceptionFilter ?? new ProblemJsonExceptionFilter(options.logger));
  await options.beforeInit?.(app);
  await app.init();
  return closingResourcesAfter(app, options.closeOnShutdown ?? [], options.logger);
}
