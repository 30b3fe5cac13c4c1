import {
  QUEUE_NAMES,
  QueueName,
  catalogRefreshQueueOf,
  parseQueuePayload,
  probeQueueOf,
} from '@gatehouse/contracts';
import { HeldLeases } from '@gatehouse/lease-holder';
import type { Logger, Registry } from '@gatehouse/platform';
import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { Counter, Gauge } from 'prom-client';
import type { WorkerConfig } from '../config/worker.config.js';
import {
  LOGGER,
  METRICS_REGISTRY,
  QUEUE_PROCESSORS,
  REDIS,
  WORKER_CONFIG,
} from '../infrastructure/infrastructure-tokens.js';
import { JobRejectedError } from './job-rejected-error.js';
import type { QueueProcessor, QueueProcessors } from './queue-processor.js';

const COUNTED_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;
const COLLECT_TIMEOUT_MS = 1_000;

/**
 * The BullMQ queue this worker's pool consumes for each queue of the enum (decision 0069): routing is by queue,
 * since a BullMQ worker takes any job of its queue; a job for a pool sits on that pool's queue only.
 */
export function consumedQueueName(queue: QueueName, pool: string): string {
  switch (queue) {
    case QueueName.CatalogRefresh:
      return catalogRefreshQueueOf(pool);
    case QueueName.Probe:
      return probeQueueOf(pool);
  }
}

async function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), timeoutMs);
  });
  try {
    return await Promise.race([promise.catch(() => undefined), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs one BullMQ Worker per queue in the contracts enum, validating each job's payload before its processor
 * sees it (a bad payload fails the job with a typed reason and never reaches the processor or crashes the
 * worker). Also holds a Queue per name, read by the queue-depth gauge. Workers and Queues close before the
 * Redis connection (closeOnShutdown in createWorkerApp).
 */
@Injectable()
export class QueueWorkersHost implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly workers = new Map<QueueName, Worker>();
  private readonly queues = new Map<QueueName, Queue>();
  private readonly jobsTotal: Counter<'queue' | 'outcome'>;
  private outage = false;

  constructor(
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(QUEUE_PROCESSORS) private readonly processors: QueueProcessors,
    @Inject(METRICS_REGISTRY) registry: Registry,
    @Inject(HeldLeases) private readonly held: HeldLeases,
  ) {
    this.jobsTotal = new Counter({
      name: 'worker_jobs_total',
      help: 'Jobs finished by this worker, by queue and outcome (completed, failed, rejected).',
      labelNames: ['queue', 'outcome'] as const,
      registers: [registry],
    });
    const queues = this.queues;
    const redisReady = () => redis.status === 'ready';
    new Gauge({
      name: 'queue_jobs',
      help: 'Jobs in each queue by state, read from Redis at scrape time.',
      labelNames: ['queue', 'state'] as const,
      registers: [registry],
      // BullMQ's connection retries commands forever while Redis is away: a scrape must not hang on it, so
      // the series are dropped (absent, not stale) when Redis is not ready or too slow.
      async collect() {
        this.reset();
        if (!redisReady()) return;
        for (const [name, queue] of queues) {
          const counts = await withTimeout(queue.getJobCounts(...COUNTED_STATES), COLLECT_TIMEOUT_MS);
          if (counts === undefined) return;
          for (const state of COUNTED_STATES) this.set({ queue: name, state }, counts[state] ?? 0);
        }
      },
    });
  }

  onApplicationBootstrap(): void {
    this.redis.on('ready', () => {
      this.outage = false;
    });
    for (const name of QUEUE_NAMES) {
      const connection = { connection: this.redis, prefix: this.config.QUEUE_PREFIX };
      const consumed = consumedQueueName(name, this.config.WORKER_POOL);
      const queue = new Queue(consumed, connection);
      queue.on('error', (error) => this.reportConnectionError(name, error));
      this.queues.set(name, queue);
      const worker = new Worker(consumed, (job: Job) => this.process(name, job), {
        ...connection,
        concurrency: this.config.WORKER_CONCURRENCY,
        name: `${this.config.WORKER_POOL}`,
        // A worker that died (SIGKILL, OOM) renews its jobs' locks no more: once a lock lapses, the stalled
        // check of any worker of the pool puts the job back, and it is retried (decision 0072).
        lockDuration: this.config.JOB_LOCK_MS,
        stalledInterval: this.config.JOB_LOCK_MS,
      });
      worker.on('completed', () => this.jobsTotal.inc({ queue: name, outcome: 'completed' }));
      worker.on('failed', (job, error) => {
        if (error instanceof JobRejectedError) {
          this.jobsTotal.inc({ queue: name, outcome: 'rejected' });
          return; // already logged with the offending fields
        }
        this.jobsTotal.inc({ queue: name, outcome: 'failed' });
        this.logger.warn({ queue: name, jobId: job?.id, err: error }, 'job failed');
      });
      // A Redis outage surfaces here (BullMQ reconnects by itself); without a listener BullMQ prints to the console.
      worker.on('error', (error) => this.reportConnectionError(name, error));
      this.workers.set(name, worker);
    }
    this.logger.info(
      { queues: QUEUE_NAMES, pool: this.config.WORKER_POOL, concurrency: this.config.WORKER_CONCURRENCY },
      'queue workers started',
    );
  }

  /**
   * Stops taking jobs, waits for running ones to finish for half the shutdown grace, then abandons the rest:
   * their leases are dropped, which closes their connections (and stdio process groups), and the jobs fail with
   * JobAbandonedError so BullMQ retries them elsewhere; a worker still not closed at the end of the grace is left
   * behind (logged). Then closes the Queues. With Redis away no job can
   * complete anyway, and BullMQ's graceful close would wait for the connection forever: close at once instead.
   */
  async beforeApplicationShutdown(): Promise<void> {
    const workers = [...this.workers.values()];
    const force = this.redis.status !== 'ready';
    if (force) this.held.drop('shutdown');
    const closed = Promise.all(workers.map((worker) => worker.close(force)));
    const finished = await withTimeout(closed, Math.floor(this.config.SHUTDOWN_GRACE_MS / 2));
    if (finished === undefined) {
      const abandoned = this.held.drop('shutdown');
      this.logger.warn({ abandoned }, 'shutdown: in-flight jobs abandoned; their leases dropped');
      // A job that still does not end once its lease is gone waits on something no lease holds: it must not hold
      // the close past the grace (a test's close has no grace timer to end it). The rest of the grace, then on.
      const ended = await withTimeout(closed, Math.floor(this.config.SHUTDOWN_GRACE_MS / 2));
      if (ended === undefined)
        this.logger.error(
          'shutdown: a queue worker did not close within the grace; closing the queues without it',
        );
    }
    await Promise.all([...this.queues.values()].map((queue) => queue.close()));
    this.workers.clear();
    this.queues.clear();
  }

  /** While Redis is away every connection errors on each reconnect attempt: log the first of an outage. */
  private reportConnectionError(queue: QueueName, error: Error): void {
    if (this.outage) return;
    this.outage = true;
    this.logger.error({ queue, err: error }, 'queue connection error; BullMQ is reconnecting');
  }

  private async process<Q extends QueueName>(queue: Q, job: Job): Promise<unknown> {
    const parsed = parseQueuePayload(queue, job.data);
    if (!parsed.ok) {
      // Field paths only: the values may be tenant data.
      this.logger.warn(
        { queue, jobId: job.id, reason: parsed.reason, fields: parsed.fields },
        'job payload rejected',
      );
      throw new JobRejectedError(parsed.reason);
    }
    const processor = this.processors[queue] as QueueProcessor<Q>;
    const attempt = job.attemptsMade + 1;
    return processor.handle(parsed.payload, {
      jobId: job.id ?? '',
      attempt,
      lastAttempt: attempt >= (job.opts.attempts ?? 1),
      queue,
    });
  }
}
