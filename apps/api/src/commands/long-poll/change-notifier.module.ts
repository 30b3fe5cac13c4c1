import { RedisConnections } from '@gatehouse/coordination';
import { Global, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { ApiConfig } from '../../config/api.config.js';
import { API_CONFIG, REDIS } from '../../infrastructure/infrastructure-tokens.js';
import { CHANGE_NOTIFIER } from './change-notifier.port.js';
import { RedisChangeNotifier } from './redis-change-notifier.js';

/** The API's ChangeNotifier over Redis pub/sub, with a subscriber connection of its own, closed at shutdown. */
@Injectable()
class ChangeNotifierHolder implements OnApplicationShutdown {
  readonly notifier: RedisChangeNotifier;

  constructor(
    @Inject(API_CONFIG) config: ApiConfig,
    @Inject(REDIS) redis: Redis,
    @Inject(RedisConnections) connections: RedisConnections,
  ) {
    this.notifier = new RedisChangeNotifier({
      publisher: redis,
      subscriber: connections.open('subscriber', 'changes'),
      // The deployment's prefix keeps deployments (and test files) sharing one Redis apart.
      channelPrefix: config.REDIS_KEY_PREFIX ?? 'gatehouse:',
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.notifier.close();
  }
}

/**
 * Long-poll reads await CHANGE_NOTIFIER; whoever changes what they read publishes on it after commit (catalog
 * snapshots, the revocation relay). Global: both the feature modules and the relay's lifecycle inject it.
 */
@Global()
@Module({
  providers: [
    ChangeNotifierHolder,
    {
      provide: CHANGE_NOTIFIER,
      inject: [ChangeNotifierHolder],
      useFactory: (holder: ChangeNotifierHolder) => holder.notifier,
    },
  ],
  exports: [CHANGE_NOTIFIER],
})
export class ChangeNotifierModule {}
