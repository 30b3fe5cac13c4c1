import { Module, type DynamicModule } from '@nestjs/common';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { HealthChecks, type HealthCheck } from '../health/health-checks.js';
import { OperationalController } from './operational.controller.js';
import { OPERATIONAL_METRICS, READINESS_CHECKS, SERVICE_LOGGER } from './operational-tokens.js';

/** Per readiness check; below the probe timeouts deployments commonly set (2-5 s). */
export const READINESS_TIMEOUT_MS = 2_000;

export interface OperationalModuleOptions {
  readonly logger: Logger;
  readonly metrics: Registry;
  /** Readiness checks by name (`postgres`, `redis`, `api`); each bounded by READINESS_TIMEOUT_MS. */
  readonly readiness: Readonly<Record<string, HealthCheck>>;
}

/** What every app serves besides its own routes: /healthz, /readyz, /metrics. */
@Module({})
export class OperationalModule {
  static forRoot(options: OperationalModuleOptions): DynamicModule {
    const health = new HealthChecks(options.readiness, {
      timeoutMs: READINESS_TIMEOUT_MS,
      onFailure: (check, reason, error) =>
        options.logger.warn({ check, reason, err: error }, 'readiness check failed'),
    });
    return {
      module: OperationalModule,
      controllers: [OperationalController],
      providers: [
        { provide: READINESS_CHECKS, useValue: health },
        { provide: OPERATIONAL_METRICS, useValue: options.metrics },
        { provide: SERVICE_LOGGER, useValue: options.logger },
      ],
    };
  }
}
