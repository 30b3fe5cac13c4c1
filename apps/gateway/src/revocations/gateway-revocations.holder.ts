import {
  closeRedis,
  createHttpRevocationsReader,
  createRedisConnection,
  leaseConcernedBy,
  RedisChannelMultiplexer,
  RevocationSubscriber,
  type HeldLeases,
  type RevalidateReason,
} from '@gatehouse/coordination';
import type { RevocationEvent } from '@gatehouse/contracts';
import type { Logger } from '@gatehouse/platform';
import type { CallerCache } from '../callers/caller.cache.js';
import type { CatalogCache } from '../catalog/catalog.cache.js';

// The gateway as a holder of the revocation ledger (decisions 0053 and 0081): one RevocationSubscriber on the
// platform stream (a gateway token serves every tenant whose pool it is in), catching up over
// `GET /v1/revocations` with the gateway token. Each event evicts the callers, catalogs and held leases it may
// concern, so the next request asks the API again and a revoked server's connection (and its stdio child) is
// closed at once; a gap, an unreadable event or a failed handler drops everything held (revalidation).

export interface GatewayRevocationsHolderOptions {
  readonly redisUrl: string;
  readonly namespace: string;
  readonly apiUrl: string;
  readonly gatewayToken: string;
  readonly logger: Logger;
  readonly callers: CallerCache;
  readonly catalogs: CatalogCache;
  readonly held: HeldLeases;
  /** Sessions opened with these (now revoked) tokens are closed. */
  readonly onTokensRevoked: (tokenIds: readonly string[]) => Promise<void> | void;
}

export class GatewayRevocationsHolder {
  private connection: ReturnType<typeof createRedisConnection> | null = null;
  private multiplexer: RedisChannelMultiplexer | null = null;
  private subscriber: RevocationSubscriber | null = null;

  constructor(private readonly options: GatewayRevocationsHolderOptions) {}

  /** Subscribes and positions at the ledger's head; false (logged) when it could not: caches then rest on TTLs. */
  async start(): Promise<boolean> {
    const { logger } = this.options;
    this.connection = createRedisConnection({
      url: this.options.redisUrl,
      name: 'gateway-revocations',
      purpose: 'subscriber',
      logger,
    });
    this.multiplexer = new RedisChannelMultiplexer(this.connection, logger);
    const subscriber = new RevocationSubscriber({
      subscriptions: this.multiplexer,
      namespace: this.options.namespace,
      stream: { stream: 'platform' },
      readSince: createHttpRevocationsReader({
        baseUrl: this.options.apiUrl,
        token: this.options.gatewayToken,
      }),
      onEvent: (event) => this.onEvent(event),
      revalidateAll: (reason) => this.revalidateAll(reason),
      logger,
    });
    try {
      await subscriber.start();
      this.subscriber = subscriber;
      return true;
    } catch (error) {
      logger.warn(
        { err: error instanceof Error ? error.message : 'non-error thrown' },
        'gateway revocation holder did not start: caches rest on their TTLs',
      );
      return false;
    }
  }

  /** Reads the ledger now and resolves once every event so far is handled (tests; a holder with a doubt). */
  async catchUp(): Promise<void> {
    if (this.subscriber === null) return;
    this.subscriber.requestCatchUp();
    await this.subscriber.idle();
  }

  async close(): Promise<void> {
    await this.subscriber?.close();
    await this.multiplexer?.close();
    if (this.connection !== null) await closeRedis(this.connection);
    this.subscriber = null;
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
