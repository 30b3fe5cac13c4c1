import {
  closeRedis,
  createHttpRevocationsReader,
  createRedisConnection,
  RedisChannelMultiplexer,
  RevocationSubscriber,
  type RevalidateReason,
} from '@gatehouse/coordination';
import { revocationEvent, revocationsPage, type RevocationEvent } from '@gatehouse/contracts';
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

/** A tenant's subscriber and the ledger position it started from (it delivers every event after it). */
interface Watch {
  readonly subscriber: RevocationSubscriber;
  readonly from: number;
}

/**
 * The worker as a lease holder (decision 0053): a RevocationSubscriber on its tenant's stream (a worker token is
 * bound to one tenant, learnt from the first lease it gets), catching up over `GET /v1/revocations` with the
 * worker token. An event that concerns a held lease drops it, which closes its connection (and a stdio child's
 * process group); a gap, an unreadable event or a failed handler drops every held lease (revalidation: the job
 * is not retried with a lease it cannot vouch for).
 *
 * A lease is asked for before its tenant may be watched, so a revocation can commit between the two (decision
 * 0073): the caller takes `positionBeforeLease` first and hands it to `watch`, and every event after that position
 * reaches the lease, whether the subscriber starts there or already ran from a later position (the difference
 * is read from the ledger once).
 */
@Injectable()
export class LeaseRevocationsHolder implements OnApplicationShutdown {
  private connection: Redis | null = null;
  private subscriptions: RedisChannelMultiplexer | null = null;
  private readonly subscribers = new Map<string, Promise<Watch | null>>();
  private closed = false;

  constructor(
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(HeldLeases) private readonly held: HeldLeases,
  ) {}

  /**
   * The tenant stream's position now (the worker token's own stream): take it before asking for a lease and pass
   * it to `watch`. Undefined when it cannot be read (the API is away: the lease request fails as well).
   */
  async positionBeforeLease(): Promise<number | undefined> {
    if (this.closed || this.config.WORKER_TOKEN === undefined) return undefined;
    try {
      return await this.headOf(this.reader(this.config.WORKER_TOKEN));
    } catch (error) {
      this.logger.warn(
        { err: error instanceof Error ? error.message : 'non-error thrown' },
        'revocations: the ledger position could not be read before a lease',
      );
      return undefined;
    }
  }

  /**
   * Watches a tenant's stream (idempotent), from `since` when given (`positionBeforeLease`), else from now.
   * Resolves once subscribed and positioned, every event after `since` handled, so a revocation committed since
   * then has dropped what it concerns; false when it could not start (logged), having dropped the tenant's held
   * leases as a revalidation does.
   */
  async watch(tenantId: string, since?: number): Promise<boolean> {
    const token = this.config.WORKER_TOKEN;
    if (this.closed || token === undefined) return false;
    let starting = this.subscribers.get(tenantId);
    const created = starting === undefined;
    if (starting === undefined) {
      starting = this.start(tenantId, token, since);
      this.subscribers.set(tenantId, starting);
    }
    const watch = await starting;
    if (watch === null) {
      this.subscribers.delete(tenantId);
      // Unwatched, nothing it holds of the tenant can be vouched for (decision 0094): revalidate rather than run
      // on the TTL. Every watcher of this failed start gets the same null, and a later job tries the start anew.
      if (created) this.revalidateAll(tenantId, 'unreadable_page');
      return false;
    }
    // Already watching from a later position than this lease's: what lies between is read once from the ledger.
    if (!created && since !== undefined && since < watch.from)
      await this.replay(tenantId, token, since, watch.from);
    return true;
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    const watches = await Promise.all(this.subscribers.values());
    this.subscribers.clear();
    await Promise.all(watches.map((watch) => watch?.subscriber.close()));
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

  private reader(token: string): (since: number, limit: number) => Promise<unknown> {
    return createHttpRevocationsReader({ baseUrl: this.config.API_URL, token });
  }

  private async headOf(read: (since: number, limit: number) => Promise<unknown>): Promise<number> {
    const page = revocationsPage.safeParse(await read(0, 1));
    if (!page.success || page.data.stream !== 'tenant')
      throw new Error('the revocation ledger answered a page this holder cannot read');
    return page.data.head;
  }

  private async start(tenantId: string, token: string, since: number | undefined): Promise<Watch | null> {
    const readSince = this.reader(token);
    try {
      // Positioned here rather than by the subscriber, so the position it delivers after is known.
      const from = since ?? (await this.headOf(readSince));
      const subscriber = new RevocationSubscriber({
        subscriptions: this.multiplexer(),
        namespace: revocationNamespaceOf(this.config.REDIS_KEY_PREFIX),
        stream: { stream: 'tenant', tenantId },
        readSince,
        since: from,
        onEvent: (event) => this.onEvent(event),
        revalidateAll: (reason) => this.revalidateAll(tenantId, reason),
        logger: this.logger,
      });
      await subscriber.start();
      return { subscriber, from };
    } catch (error) {
      this.logger.warn(
        { tenantId, err: error instanceof Error ? error.message : 'non-error thrown' },
        'revocation holder did not start: the tenant’s held leases are dropped',
      );
      return null;
    }
  }

  /** Handles the ledger's events in (since, until] once: a lease newer than the running subscriber's start. */
  private async replay(tenantId: string, token: string, since: number, until: number): Promise<void> {
    const readSince = this.reader(token);
    let cursor = since;
    try {
      while (cursor < until) {
        const page = revocationsPage.safeParse(await readSince(cursor, Math.min(500, until - cursor)));
        if (!page.success || page.data.stream !== 'tenant') throw new Error('unreadable revocation page');
        if (page.data.events.length === 0) return;
        for (const entry of page.data.events) {
          if (entry.seq <= cursor || entry.seq > until) continue;
          cursor = entry.seq;
          const event = revocationEvent.safeParse(entry);
          if (event.success) this.onEvent(event.data);
          else this.revalidateAll(tenantId, 'unreadable_event');
        }
        if (!page.data.hasMore) return;
      }
    } catch (error) {
      // What it could not read it cannot vouch for.
      this.logger.warn(
        { tenantId, err: error instanceof Error ? error.message : 'non-error thrown' },
        'revocations: catch-up for a new lease failed',
      );
      this.revalidateAll(tenantId, 'unreadable_page');
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
