import { RedisConnections } from '@gatehouse/coordination';
import type { Database } from '@gatehouse/db';
import type { Logger, Registry } from '@gatehouse/platform';
import { Module, type DynamicModule } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { ApiConfig } from '../config/api.config.js';
import { InfrastructureLifecycle } from './infrastructure-lifecycle.js';
import { API_CONFIG, DATABASE, LOGGER, METRICS_REGISTRY, REDIS } from './infrastructure-tokens.js';

/** What createApiApp builds before Nest starts: config, logger, pools and the metrics registry. */
export type ApiInfrastructure = {
  config: ApiConfig;
  logger: Logger;
  database: Database;
  /** Every Redis connection of the API comes from here; `redis` is its main (`command`) one. */
  connections: RedisConnections;
  redis: Redis;
  metrics: Registry;
};

/**
 * Provides the infrastructure as values (built, and checked, outside Nest so boot failures are ours to
 * report) and closes the pools when the application shuts down. Global: every feature module injects these.
 */
@Module({})
export class InfrastructureModule {
  static forRoot(infrastructure: ApiInfrastructure): DynamicModule {
    return {
      module: InfrastructureModule,
      global: true,
      providers: [
        { provide: API_CONFIG, useValue: infrastructure.config },
        { provide: LOGGER, useValue: infrastructure.logger },
        { provide: DATABASE, useValue: infrastructure.database },
        { provide: RedisConnections, useValue: infrastructure.connections },
        { provide: REDIS, useValue: infrastructure.redis },
        { provide: METRICS_REGISTRY, useValue: infrastructure.metrics },
        InfrastructureLifecycle,
      ],
      exports: [API_CONFIG, LOGGER, DATABASE, RedisConnections, REDIS, METRICS_REGISTRY],
    };
  }
}
