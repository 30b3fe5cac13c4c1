import { randomBytes } from 'node:crypto';
import { createLogger, parseConfig, type Logger } from '@gatehouse/platform';
import { testRedisUrl } from '@gatehouse/testing';
import { Redis } from 'ioredis';
import { apiConfigSchema, type ApiConfig } from '../../config/api.config';

export interface CommandInfrastructure {
  readonly config: ApiConfig;
  readonly logger: Logger;
  readonly redis: Redis;
  /** Closes what this helper opened (a Redis connection passed in stays the caller's). */
  close(): Promise<void>;
}

/**
 * The config, logger and Redis connection a command context injects, for tests that build the use cases
 * without createApiApp. The Redis connection is lazy: a context that never uses Redis opens no socket.
 */
export function testCommandInfrastructure(options: {
  databaseUrl: string;
  logger?: Logger;
  redis?: Redis;
}): CommandInfrastructure {
  const parsed = parseConfig(apiConfigSchema, {
    NODE_ENV: 'test',
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: testRedisUrl(),
    // Jobs the use cases enqueue (catalog refresh) land under a prefix of this context's own, never a real one.
    QUEUE_PREFIX: `gh-test-${randomBytes(6).toString('hex')}`,
  });
  if (!parsed.ok) throw new Error(parsed.message);
  const redis = options.redis ?? new Redis(testRedisUrl(), { lazyConnect: true, maxRetriesPerRequest: 1 });
  return {
    config: parsed.config,
    logger: options.logger ?? createLogger({ name: 'command-context-test', level: 'silent' }),
    redis,
    close: async () => {
      if (!options.redis) redis.disconnect();
    },
  };
}
