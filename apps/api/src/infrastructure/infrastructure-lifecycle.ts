import { closeRedis } from '@gatehouse/coordination';
import type { Database } from '@gatehouse/db';
import type { Logger } from '@gatehouse/platform';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { DATABASE, LOGGER, REDIS } from './infrastructure-tokens.js';

/**
 * Closes the Postgres pool and the Redis connection. `onApplicationShutdown` runs after Nest has closed the
 * HTTP server (which drains in-flight requests), so no request loses its connection mid-way.
 */
@Injectable()
export class InfrastructureLifecycle implements OnApplicationShutdown {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    const results = await Promise.allSettled([this.database.close(), closeRedis(this.redis)]);
    for (const [index, result] of results.entries()) {
      if (result.status === 'rejected') {
        this.logger.warn(
          { err: result.reason, resource: index === 0 ? 'postgres' : 'redis' },
          'close failed',
        );
      }
    }
  }
}
