import {
  closeRedis,
  RedisChannelMultiplexer,
  RedisConnections,
  RetryingRevocationHolder,
  revocationNamespaceOf,
  RevocationSubscriber,
} from '@gatehouse/coordination';
import type { Database } from '@gatehouse/db';
import type { Logger } from '@gatehouse/platform';
import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { Redis } from 'ioredis';
import { catalogChangeFeed } from '../commands/long-poll/catalog-change-feed.js';
import { CHANGE_NOTIFIER, type ChangeNotifier } from '../commands/long-poll/change-notifier.port.js';
import type { ApiConfig } from '../config/api.config.js';
import { API_CONFIG, DATABASE, LOGGER, REDIS } from '../infrastructure/infrastructure-tokens.js';
import { RevocationRelay } from './revocation-relay.js';
import { readRevocationsPage } from './revocations-page-reader.js';
import { evictAllTokens, evictTokensFor } from './token-cache-revocation-holder.js';

/**
 * Runs, in every API process, the ledger's relay and the holder that keeps the bearer-token cache honest. They
 * start stopping when shutdown begins, without holding up the HTTP drain. Neither can stop the boot: a relay pass
 * that fails is retried on the next tick, and a holder that cannot start is started again with backoff (the cache
 * is on its TTL meanwhile, and dropped once it starts late).
 */
@Injectable()
export class RevocationsLifecycle
  implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown
{
  private relay: RevocationRelay | null = null;
  private subscriberConnection: Redis | null = null;
  private subscriptions: RedisChannelMultiplexer | null = null;
  private holder: RetryingRevocationHolder | null = null;
  private stopping: Promise<void> | null = null;

  constructor(
    @Inject(API_CONFIG) private readonly config: ApiConfig,
    @Inject(DATABASE) private readonly database: Database,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(RedisConnections) private readonly connections: RedisConnections,
    @Inject(CHANGE_NOTIFIER) private readonly changes: ChangeNotifier,
  ) {}

  onApplicationBootstrap(): void {
    const namespace = revocationNamespaceOf(this.config.REDIS_KEY_PREFIX);
    this.relay = new RevocationRelay({
      database: this.database,
      redis: this.redis,
      namespace,
      logger: this.logger,
      // Catalog leases long-poll for exactly these changes (decision 0074).
      onPublished: catalogChangeFeed(this.changes, this.logger),
    });
    this.relay.start();
    this.subscriberConnection = this.connections.open('subscriber', 'revocations');
    this.subscriptions = new RedisChannelMultiplexer(this.subscriberConnection, this.logger);
    const subscriptions = this.subscriptions;
    // A boot read that fails (Postgres or Redis not reachable yet) is retried with backoff, never given up on.
    this.holder = new RetryingRevocationHolder({
      create: () =>
        new RevocationSubscriber({
          subscriptions,
          namespace,
          stream: { stream: 'platform' },
          readSince: (since, limit) =>
            readRevocationsPage(this.database, { stream: 'platform' }, since, limit),
          onEvent: evictTokensFor,
          revalidateAll: evictAllTokens,
          logger: this.logger,
        }),
      revalidateAll: evictAllTokens,
      name: 'token cache',
      logger: this.logger,
    });
    this.holder.start();
  }

  // Not awaited here: Nest closes the HTTP server after this hook, and draining requests must not wait for us.
  beforeApplicationShutdown(): void {
    this.stopping ??= this.stop();
  }

  // Before the pools close? Not guaranteed across modules: a pass cut short by a closed pool only logs.
  async onApplicationShutdown(): Promise<void> {
    this.stopping ??= this.stop();
    await this.stopping;
  }

  private async stop(): Promise<void> {
    const relay = this.relay;
    // Each step bounded: an UNSUBSCRIBE (or a SUBSCRIBE) queued on a subscriber connection that cannot reach
    // Redis waits forever, and shutdown must not. Holder and multiplexer first, then the connection itself.
    await Promise.allSettled([
      relay?.stop(),
      bounded(this.holder?.close()).then(() => bounded(this.subscriptions?.close())),
    ]);
    if (this.subscriberConnection) await closeRedis(this.subscriberConnection);
  }
}

const STOP_STEP_MS = 2_000;

async function bounded(step: Promise<void> | undefined): Promise<void> {
  if (!step) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    step.catch(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, STOP_STEP_MS);
    }),
  ]);
  clearTimeout(timer);
}
