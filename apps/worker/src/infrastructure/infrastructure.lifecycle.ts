import { closeRedis } from '@gatehouse/coordination';
import type { Logger } from '@gatehouse/platform';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { LOGGER, REDIS } from './infrastructure.tokens.js';

/**
 * Closes the Redis connection last. BullMQ never closes a connection it was given, and
 * `onApplicationShutdown` runs after every `beforeApplicationShutdown`, where the Workers and Queues close.
 */
@Injectable()
export class InfrastructureLifecycle implements OnApplicationShutdown {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await closeRedis(this.redis).catch((error: unknown) =>
      this.logger.warn({ err: error }, 'redis close failed'),
    );
  }
}
