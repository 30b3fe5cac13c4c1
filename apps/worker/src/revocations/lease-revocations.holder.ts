import {
  closeRedis,
  RedisChannelMultiplexer,
  RedisConnections,
  RetryingRevocationHolder,
  revocationNamespaceOf,
  RevocationSubscriber,
  type RevalidateReason,
} from '@gatehouse/coordination';
import { revocationEvent, revocationsPage, type RevocationEvent } from '@gatehouse/contracts';
import { createHttpRevocationsReader, HeldLeases, leaseConcernedBy } from '@gatehouse/lease-holder';
import type { Logger } from '@gatehouse/platform';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { WorkerConfig } from '../config/worker.config.js';
import { LOGGER, WORKER_CONFIG } from '../infrastructure/infrastructure-tokens.js';

/** Bounds of a tenant holder's start backoff: its cost is one HTTP read, and every moment unready refuses jobs. */
const RETRY_INITIAL_DELAY_MS = 250;
const RETRY_MAX_DELAY_MS = 5_000;

/**
 * A watched tenant: its holder, retrying until it starts and never closed before shutdown, and the position its
 * subscriber delivers every event after (the first lease's position; the head when that could not be read, known
 * once started).
 */
interface TenantWatch {
  readonly holder: RetryingRevocationHolder;
  from: number | undefined;
  /** The subscriber of the latest attempt: the one that started, once the holder has. */
  current: RevocationSubscriber | null;
}

/**
 * The worker as a lease holder (decisions 0053 and 0129): a RevocationSubscriber on its tenant's stream (a worker
 * token is bound to one tenant, learnt from the first lease it gets), catching up over `GET /v1/revocations` with
 * the worker token. An event that concerns a held lease drops it, which closes its connection (and a stdio child's
 * process group); a gap, an unreadable event or a failed handler drops every held lease of the tenant
 * (revalidation: the job is not retried with a lease it cannot vouch for).
 *
 * From a tenant's first lease on, its holder never gives up until shutdown: a failed start is retried with backoff
 * (the shared RetryingRevocationHolder), and it catches up from the ledger when it starts. While a tenant's holder
 * is not live the worker fails closed for that tenant (decision 0094): a holder that has not started drops every
 * held lease of the tenant at each failed attempt and once more when it starts (it cannot vouch for what happened
 * meanwhile), and `watch` refuses a new lease (the job drops it before connecting) until the holder is live. A lease
 * already in use when a started holder loses its stream stays: the holder has its position and reads what it missed
 * from the ledger once back (decision 0073). `live` (the worker's /readyz) is false while any tenant's holder is not.
 *
 * A lease is asked for before its tenant may be watched, so a revocation can commit between the two (decision
 * 0073): the caller takes `positionBeforeLease` first, holds the lease, and hands the position to `watch`, and every
 * event after that position reaches the lease, whether the subscriber starts there or was already running (what
 * it delivered from that position up to its current one, before the lease was held, is read from the ledger once).
 */
@Injectable()
export class LeaseRevocationsHolder implements OnApplicationShutdown {
  private connection: Redis | null = null;
  private subscriptions: RedisChannelMultiplexer | null = null;
  private readonly watches = new Map<string, TenantWatch>();
  private closed = false;

  constructor(
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(HeldLeases) private readonly held: HeldLeases,
    @Inject(RedisConnections) private readonly connections: RedisConnections,
  ) {}

  /** Every watched tenant's holder started, its stream up and caught up (true while nothing is watched). */
  get live(): boolean {
    for (const watch of this.watches.values()) if (!watch.holder.live) return false;
    return true;
  }

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
   * Watches a tenant's stream (idempotent), from `since` when given (`positionBeforeLease`), else from now, and
   * says whether a lease of the tenant held since `since` may be used: true once the holder is live, every event
   * after `since` handled, so a revocation committed since then has dropped what it concerns; false while the
   * holder is not live (not started yet, retrying, or its stream lost): the caller drops its lease unused. The
   * holder's first attempt, or the one under way, is awaited; a holder waiting to retry answers false at once.
   */
  async watch(tenantId: string, since?: number): Promise<boolean> {
    const token = this.config.WORKER_TOKEN;
    if (this.closed || token === undefined) return false;
    let watch = this.watches.get(tenantId);
    const created = watch === undefined;
    if (watch === undefined) {
      watch = this.startWatching(tenantId, token, since);
      this.watches.set(tenantId, watch);
    }
    await watch.holder.settled();
    if (this.closed || !watch.holder.live) return false;
    watch.from ??= watch.current?.lastSeq;
    // A subscriber that was already running may have delivered events after `since` before the lease was held
    // (from its start position, or while the lease's answer was on its way): they found nothing to drop. Read once
    // from the ledger up to where it stands now; it delivers every later event with the lease held. One started
    // here began at `since` after the lease was held: it has delivered everything to it.
    const until = watch.current?.lastSeq;
    if (!created && since !== undefined && until !== undefined && since < until)
      await this.replay(tenantId, token, since, until);
    return true;
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    const watches = [...this.watches.values()];
    this.watches.clear();
    await Promise.all(watches.map((watch) => watch.holder.close()));
    await this.subscriptions?.close();
    if (this.connection !== null) await closeRedis(this.connection);
    this.connection = null;
    this.subscriptions = null;
  }

  private multiplexer(): RedisChannelMultiplexer {
    if (this.subscriptions === null) {
      this.connection = this.connections.open('subscriber', 'revocations');
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

  /** The tenant's holder, its first attempt under way; it retries until it starts or the worker shuts down. */
  private startWatching(tenantId: string, token: string, since: number | undefined): TenantWatch {
    const readSince = this.reader(token);
    const multiplexer = this.multiplexer();
    const watch: TenantWatch = {
      holder: new RetryingRevocationHolder({
        create: () => {
          // Every attempt starts from the first lease's position (or the head, when that was not known), so once
          // one starts it has read every event since from the ledger.
          const subscriber = new RevocationSubscriber({
            subscriptions: multiplexer,
            namespace: revocationNamespaceOf(this.config.REDIS_KEY_PREFIX),
            stream: { stream: 'tenant', tenantId },
            readSince,
            ...(watch.from === undefined ? {} : { since: watch.from }),
            onEvent: (event) => this.onEvent(event),
            revalidateAll: (reason) => this.revalidateAll(tenantId, reason),
            logger: this.logger,
          });
          watch.current = subscriber;
          return subscriber;
        },
        // Started after failing: leases held meanwhile were not watched, whatever the ledger says now.
        revalidateAll: () => this.revalidateAll(tenantId, 'unreadable_page'),
        // Unwatched, nothing held of the tenant can be vouched for (decision 0094): drop it rather than run on.
        onAttemptFailed: () => this.revalidateAll(tenantId, 'unreadable_page'),
        initialDelayMs: RETRY_INITIAL_DELAY_MS,
        maxDelayMs: RETRY_MAX_DELAY_MS,
        name: `worker tenant ${tenantId}`,
        logger: this.logger,
      }),
      from: since,
      current: null,
    };
    watch.holder.start();
    return watch;
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
