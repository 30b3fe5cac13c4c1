import {
  catalogRefreshJobKey,
  catalogRefreshQueueOf,
  probeJobKey,
  probeQueueOf,
  type CatalogRefreshPayloadV2,
  type ProbePayloadV1,
} from '@gatehouse/contracts';
import { closeRedis, RedisConnections } from '@gatehouse/coordination';
import type { Logger } from '@gatehouse/platform';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ApiConfig } from '../config/api.config';
import { API_CONFIG, LOGGER } from '../infrastructure/infrastructure-tokens';

/** Job states in which a job with the same id absorbs a new add (BullMQ keeps one job per id). */
const PENDING_STATES: ReadonlySet<string> = new Set([
  'waiting',
  'delayed',
  'prioritized',
  'active',
  'waiting-children',
]);

/**
 * Retries are the queue's (decision 0069: one connection attempt per job): a transient failure is retried with
 * backoff. Finished jobs are removed, so a later trigger for the same key (a manual refresh after the job ran)
 * makes a new job instead of meeting a completed one that would absorb it forever.
 */
const JOB_OPTIONS = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 5_000 },
  removeOnComplete: true,
  removeOnFail: true,
} as const;

/**
 * The API's side of the workers' queues: one BullMQ Queue per pool and kind (`catalog-refresh.<pool>`,
 * `probe.<pool>`), opened on
 * first use over one connection of its own (BullMQ's, `maxRetriesPerRequest: null`), so an API that never
 * enqueues opens no socket. Also lends that connection to the sweep scheduler. Closed at shutdown.
 */
@Injectable()
export class CatalogRefreshQueues implements OnApplicationShutdown {
  private connection: Redis | null = null;
  private readonly queues = new Map<string, Queue>();

  constructor(
    @Inject(API_CONFIG) private readonly config: ApiConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(RedisConnections) private readonly connections: RedisConnections,
  ) {}

  get prefix(): string {
    return this.config.QUEUE_PREFIX;
  }

  /** The BullMQ connection (created on first use); BullMQ never closes a connection it was given. */
  bullmqConnection(): Redis {
    this.connection ??= this.connections.open('bullmq');
    return this.connection;
  }

  /**
   * Adds the job under its idempotency key. `collapsed` is true when a job of that key was already pending (it
   * absorbs this one); read just before the add, so two racing adds may both say false: the add itself is what
   * is idempotent, the flag only reports.
   */
  async add(payload: CatalogRefreshPayloadV2): Promise<{ jobId: string; collapsed: boolean }> {
    return this.addTo(catalogRefreshQueueOf(payload.pool), 'refresh', catalogRefreshJobKey(payload), payload);
  }

  /** A probe job (decision 0078), on `probe.<pool>`, under its own key; the same options. */
  async addProbe(payload: ProbePayloadV1): Promise<{ jobId: string; collapsed: boolean }> {
    return this.addTo(probeQueueOf(payload.pool), 'probe', probeJobKey(payload), payload);
  }

  private async addTo(
    name: string,
    jobName: string,
    jobId: string,
    payload: object,
  ): Promise<{ jobId: string; collapsed: boolean }> {
    const queue = this.queueOf(name);
    const before = await queue.getJobState(jobId);
    await queue.add(jobName, payload, { ...JOB_OPTIONS, jobId });
    return { jobId, collapsed: PENDING_STATES.has(before) };
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.queues.values()].map((queue) => queue.close()));
    this.queues.clear();
    if (this.connection !== null) await closeRedis(this.connection);
    this.connection = null;
  }

  private queueOf(name: string): Queue {
    let queue = this.queues.get(name);
    if (queue === undefined) {
      queue = new Queue(name, { connection: this.bullmqConnection(), prefix: this.config.QUEUE_PREFIX });
      queue.on('error', (error) => this.logger.warn({ queue: name, err: error }, 'queue error'));
      this.queues.set(name, queue);
    }
    return queue;
  }
}
