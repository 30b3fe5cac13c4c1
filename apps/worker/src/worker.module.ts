import { RedisConnections } from '@gatehouse/coordination';
import { QueueName } from '@gatehouse/contracts';
import { HeldLeases, LeaseApiClient } from '@gatehouse/lease-holder';
import type { Logger, Registry } from '@gatehouse/platform';
import { Module, type DynamicModule } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { CatalogRefreshProcessor } from './catalog-refresh/catalog-refresh-processor.js';
import { ProbeProcessor } from './probes/probe-processor.js';
import { ChildGroupReaper } from './children/child-group-reaper.js';
import type { WorkerConfig } from './config/worker.config.js';
import {
  LOGGER,
  METRICS_REGISTRY,
  QUEUE_PROCESSORS,
  REDIS,
  WORKER_CONFIG,
} from './infrastructure/infrastructure-tokens.js';
import { LEASE_API } from './leases/lease-tokens.js';
import type { QueueProcessors } from './queues/queue-processor.js';
import { LeaseRevocationsHolder } from './revocations/lease-revocations.holder.js';
import { QueueWorkersHost } from './queues/queue-workers-host.js';

/** Built by createWorkerApp before Nest starts. */
export type WorkerInfrastructure = {
  config: WorkerConfig;
  logger: Logger;
  /** Every Redis connection of the worker comes from here; `redis` is its main (`bullmq`) one. */
  connections: RedisConnections;
  redis: Redis;
  metrics: Registry;
};

/**
 * The worker's root module: processors and the BullMQ host. Health, metrics and closing Redis (after the
 * Workers and Queues) are the platform's (createServiceApp).
 */
@Module({})
export class WorkerModule {
  static forRoot(infrastructure: WorkerInfrastructure): DynamicModule {
    return {
      module: WorkerModule,
      providers: [
        { provide: WORKER_CONFIG, useValue: infrastructure.config },
        { provide: LOGGER, useValue: infrastructure.logger },
        { provide: RedisConnections, useValue: infrastructure.connections },
        { provide: REDIS, useValue: infrastructure.redis },
        { provide: METRICS_REGISTRY, useValue: infrastructure.metrics },
        {
          // Without WORKER_TOKEN the worker leases nothing (null): its processors skip the jobs that need a lease.
          provide: LEASE_API,
          inject: [WORKER_CONFIG],
          useFactory: (config: WorkerConfig): LeaseApiClient | null =>
            config.WORKER_TOKEN === undefined
              ? null
              : new LeaseApiClient({ apiUrl: config.API_URL, token: config.WORKER_TOKEN }),
        },
        HeldLeases,
        ChildGroupReaper,
        LeaseRevocationsHolder,
        CatalogRefreshProcessor,
        ProbeProcessor,
        {
          provide: QUEUE_PROCESSORS,
          inject: [CatalogRefreshProcessor, ProbeProcessor],
          useFactory: (catalogRefresh: CatalogRefreshProcessor, probe: ProbeProcessor): QueueProcessors => ({
            [QueueName.CatalogRefresh]: catalogRefresh,
            [QueueName.Probe]: probe,
          }),
        },
        QueueWorkersHost,
      ],
    };
  }
}
