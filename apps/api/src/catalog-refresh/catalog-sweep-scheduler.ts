import { ApiQueueName } from '@gatehouse/contracts';
import type { Logger } from '@gatehouse/platform';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ApiConfig } from '../config/api.config';
import { API_CONFIG, LOGGER } from '../infrastructure/infrastructure-tokens';
import { CatalogRefreshQueues } from '../catalog-refresh-queue/catalog-refresh-queues';
import { StaleCatalogsSweep, catalogSweepEveryMs } from './stale-catalogs-sweep';

/** One scheduler id for the deployment: every API process upserts the same one, so there is one schedule. */
const SCHEDULER_ID = 'catalog-sweep';

/**
 * Runs the catalog sweep on a BullMQ job scheduler (decision 0076). Every API process upserts the same scheduler
 * (idempotent by id: one schedule, the latest interval wins) and runs a Worker on the sweep queue with
 * concurrency 1; BullMQ hands each tick's job to exactly one of them, so several API processes sweep once per
 * tick, not once each. Boot never waits on Redis: the upsert is retried by BullMQ's connection, and logged if
 * it fails.
 */
@Injectable()
export class CatalogSweepScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private queue: Queue | null = null;
  private worker: Worker | null = null;
  private connection: Redis | null = null;

  constructor(
    @Inject(API_CONFIG) private readonly config: ApiConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CatalogRefreshQueues) private readonly queues: CatalogRefreshQueues,
    @Inject(StaleCatalogsSweep) private readonly sweep: StaleCatalogsSweep,
  ) {}

  onApplicationBootstrap(): void {
    const every = catalogSweepEveryMs(this.config);
    if (every === 0) return;
    const connection = this.queues.bullmqConnection();
    const options = { connection, prefix: this.queues.prefix };
    const queue = new Queue(ApiQueueName.CatalogSweep, options);
    queue.on('error', (error) => this.logger.warn({ err: error }, 'catalog sweep queue error'));
    queue
      .upsertJobScheduler(
        SCHEDULER_ID,
        { every },
        { name: 'sweep', data: { v: 1 }, opts: { removeOnComplete: true, removeOnFail: true } },
      )
      .catch((error: unknown) => this.logger.warn({ err: error }, 'catalog sweep scheduler not set'));
    const worker = new Worker(ApiQueueName.CatalogSweep, () => this.sweep.run(), {
      ...options,
      concurrency: 1,
    });
    worker.on('failed', (_job, error) => this.logger.warn({ err: error }, 'catalog sweep failed'));
    worker.on('error', (error) => this.logger.warn({ err: error }, 'catalog sweep worker error'));
    this.queue = queue;
    this.worker = worker;
    this.connection = connection;
    this.logger.info({ everyMs: every }, 'catalog sweep scheduled');
  }

  /**
   * After HTTP has drained (a before-shutdown hook would hold the drain back while BullMQ closes). BullMQ's
   * graceful close waits for Redis forever when it is unreachable, and CatalogRefreshQueues may already have
   * closed the shared connection: on a connection that is not ready the worker is closed at once. A tick
   * abandoned that way is a stalled job BullMQ hands out again; the sweep is idempotent.
   */
  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close(this.connection?.status !== 'ready');
    await this.queue?.close();
    this.connection = null;
    this.worker = null;
    this.queue = null;
  }
}
