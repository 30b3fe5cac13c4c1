import {
  closeRedis,
  RedisChannelMultiplexer,
  RetryingRevocationHolder,
  RevocationSubscriber,
  type RevalidateReason,
} from '@gatehouse/coordination';
import type { RevocationEvent } from '@gatehouse/contracts';
import { createHttpRevocationsReader, leaseConcernedBy, type HeldLeases } from '@gatehouse/lease-holder';
import type { Logger } from '@gatehouse/platform';
import type { Redis } from 'ioredis';
import type { CallerCache } from '../callers/caller-cache.js';
import type { CatalogCache } from '../catalog/catalog-cache.js';

// The gateway as a holder of the revocation ledger (decisions 0053, 0081 and 0129): one RevocationSubscriber on
// the platform stream (a gateway token serves every tenant whose pool it is in), catching up over
// `GET /v1/revocations` with the gateway token. Each event evicts the callers, catalogs and held leases it may
// concern, so the next request asks the API again and a revoked server's connection (and its stdio child) is
// closed at once; a gap, an unreadable event or a failed handler drops everything held (revalidation).
//
// Its start is retried with backoff until it has its position (the gateway may well start before the API or
// Redis); until then, and whenever its stream is lost and not yet caught up, it is not `live`: /readyz says so and
// the caller cache serves nothing it holds (every request asks the API).

export interface GatewayRevocationsHolderOptions {
  /** Opens the holder's own `subscriber` connection (RedisConnections.open); it closes it in close(). */
  readonly connect: () => Redis;
  readonly namespace: string;
  readonly apiUrl: string;
  readonly gatewayToken: string;
  readonly logger: Logger;
  readonly callers: CallerCache;
  readonly catalogs: CatalogCache;
  readonly held: HeldLeases;
  /** Sessions opened with these (now revoked) tokens are closed. */
  readonly onTokensRevoked: (tokenIds: readonly string[]) => Promise<void> | void;
  /** Bounds of the start's backoff (defaults 250 ms and 5 s). */
  readonly retryInitialDelayMs?: number;
  readonly retryMaxDelayMs?: number;
}

export class GatewayRevocationsHolder {
  private connection: Redis | null = null;
  private multiplexer: RedisChannelMultiplexer | null = null;
  private holder: RetryingRevocationHolder | null = null;

  constructor(private readonly options: GatewayRevocationsHolderOptions) {}

  /** Starts subscribing in the background, retrying until positioned; never throws, never waits. */
  start(): void {
    if (this.holder !== null) return;
    const { logger } = this.options;
    this.connection = this.options.connect();
    const multiplexer = new RedisChannelMultiplexer(this.connection, logger);
    this.multiplexer = multiplexer;
    const readSince = createHttpRevocationsReader({
      baseUrl: this.options.apiUrl,
      token: this.options.gatewayToken,
    });
    this.holder = new RetryingRevocationHolder({
      create: () =>
        new RevocationSubscriber({
          subscriptions: multiplexer,
          namespace: this.options.namespace,
          stream: { stream: 'platform' },
          readSince,
          onEvent: (event) => this.onEvent(event),
          revalidateAll: (reason) => this.revalidateAll(reason),
          logger,
        }),
      // Started at the head after failing: whatever was held meanwhile cannot be vouched for.
      revalidateAll: () => this.revalidateAll('unreadable_page'),
      initialDelayMs: this.options.retryInitialDelayMs ?? 250,
      maxDelayMs: this.options.retryMaxDelayMs ?? 5_000,
      name: 'gateway',
      logger,
    });
    this.holder.start();
  }

  /** Started, its stream up and caught up: the caches may be served. */
  get live(): boolean {
    return this.holder?.live ?? false;
  }

  /** Resolves the next time the holder is live (tests; readiness waits). */
  whenLive(): Promise<void> {
    return this.holder?.whenLive() ?? new Promise(() => undefined);
  }

  /**
   * Reads the ledger now and resolves once every event so far is handled (tests; a holder with a doubt). Waits
   * until the holder is live first: before that it has no position to read from.
   */
  async catchUp(): Promise<void> {
    if (this.holder === null) return;
    await this.holder.whenLive();
    await this.holder.catchUp();
  }

  async close(): Promise<void> {
    await this.holder?.close();
    await this.multiplexer?.close();
    if (this.connection !== null) await closeRedis(this.connection);
    this.holder = null;
    this.multiplexer = null;
    this.connection = null;
  }

  private async onEvent(event: RevocationEvent): Promise<void> {
    const evicted = this.options.callers.evict(event);
    this.options.catalogs.invalidate(event);
    const dropped = this.options.held.drop('revoked', (lease) => leaseConcernedBy(event, lease));
    if (event.kind === 'token_revoked' || event.kind === 'member_changed') {
      const tokenIds = event.subject.tokenIds ?? evicted;
      if (tokenIds.length > 0) await this.options.onTokensRevoked(tokenIds);
    }
    if (dropped > 0)
      this.options.logger.info(
        { seq: event.seq, kind: event.kind, dropped },
        'gateway leases dropped: revoked',
      );
  }

  private revalidateAll(reason: RevalidateReason): void {
    this.options.callers.clear();
    this.options.catalogs.clear();
    const dropped = this.options.held.drop('revalidate');
    this.options.logger.warn(
      { reason, dropped },
      'gateway revocations: revalidating, everything held dropped',
    );
  }
}
