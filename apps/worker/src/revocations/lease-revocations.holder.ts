import {
  closeRedis,
  createHttpRevocationsReader,
  createRedisConnection,
  RedisChannelMultiplexer,
  RevocationSubscriber,
  type RevalidateReason,
} from '@gatehouse/coordination';
import type { RevocationEvent } from '@gatehouse/contracts';
import type { Logger } from '@gatehouse/platform';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { WorkerConfig } from '../config/worker.config.js';
import { LOGGER, WORKER_CONFIG } from '../infrastructure/infrastructure.tokens.js';
import { HeldLeases } from '../leases/held-leases.registry.js';
import { leaseConcernedBy } from './lease-revocation.match.js';

/** REDIS_KEY_PREFIX without its trailing colons: the namespace the API's relay publishes under. */
export function revocationNamespaceOf(prefix: string): string {
  return prefix.replace(/:+$/, '') || 'gatehouse';
}

/**
 * The worker as a lease holder (decision 0053): a RevocationSubscriber on its tenant's stream (a worker token is
 * bound to one tenant, learnt from the first lease it gets), catching up over `GET /v1/revocations` with the
 * worker token. An event that concerns a held lease drops it, which closes its connection (and a stdio child's
 * process group); a gap, an unreadable event or a failed handler drops every held lease (revalidation: the job
 * is not retried with a lease it cannot vouch for).
 */
@Injectable()
export class LeaseRevocationsHolder implements OnApplicationShutdown {
  private connection: Redis | null = null;
  private subscriptions: RedisChannelMultiplexer | null = null;
  private readonly subscribers = new Map<string, Promise<RevocationSubscriber | null>>();
  private closed = false;

  constructor(
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(HeldLeases) private readonly held: HeldLeases,
  ) {}

  /**
   * Watches a tenant's stream from now on (idempotent). Resolves once subscribed and positioned, so an event
   * published after it is seen; false when it could not start (logged: the lease then rests on its short TTL).
   */
  async watch(tenantId: string): Promise<boolean> {
    if (this.closed || this.config.WORKER_TOKEN === undefined) return false;
    let starting = this.subscribers.get(tenantId);
    if (starting === undefined) {
      starting = this.start(tenantId, this.config.WORKER_TOKEN);
      this.subscribers.set(tenantId, starting);
    }
    const subscriber = await starting;
    if (subscriber === null) this.subscribers.delete(tenantId);
    return subscriber !== null;
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    const subscribers = await Promise.all(this.subscribers.values());
    this.subscribers.clear();
    await Promise.all(subscribers.map((s) => s?.close()));
    await this.subscriptions?.close();
    if (this.connection !== null) await closeRedis(this.connection);
    this.connection = null;
    this.subscriptions = null;
  }

  private multiplexer(): RedisChannelMultiplexer {
    if (this.subscriptions === null) {
      this.connection = createRedisConnection({
        url: this.config.REDIS_URL,
        name: 'worker-revocations',
        purpose: 'subscriber',
        logger: this.logger,
      });
      this.subscriptions = new RedisChannelMultiplexer(this.connection, this.logger);
    }
    return this.subscriptions;
  }

  private async start(tenantId: string, token: string): Promise<RevocationSubscriber | null> {
    const subscriber = new RevocationSubscriber({
      subscriptions: this.multiplexer(),
      namespace: revocationNamespaceOf(this.config.REDIS_KEY_PREFIX),
      stream: { stream: 'tenant', tenantId },
      readSince: createHttpRevocationsReader({ baseUrl: this.config.API_URL, token }),
      onEvent: (event) => this.onEvent(event),
      revalidateAll: (reason) => this.revalidateAll(tenantId, reason),
      logger: this.logger,
    });
    try {
      await subscriber.start();
      return subscriber;
    } catch (error) {
      this.logger.warn(
        { tenantId, err: error instanceof Error ? error.message : 'non-error thrown' },
        'revocation holder did not start: held leases rest on their TTL',
      );
      return null;
    }
  }

  private onEvent(event: RevocationEvent): void {
    const dropped = this.held.drop('revoked', (lease) => leaseConcernedBy(event, lease));
    if (dropped > 0)
      this.logger.info({ seq: event.seq, kind: event.kind, dropped }, 'leases dropped: revoked');
  }

  private revalidateAll(tenantId: string, reason: RevalidateReason): void {
    const dropped = this.held.drop('revalidate', (lease) => lease.tenantId === tenantId);
    this.logger.warn({ tenantId, reason, dropped }, 'revocations: revalidating, held leases dropped');
  }
}
