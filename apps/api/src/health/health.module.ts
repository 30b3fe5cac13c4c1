import type { Database } from '@gatehouse/db';
import { HealthChecks, redisCheck, type Logger } from '@gatehouse/platform';
import { Module } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { DATABASE, LOGGER, REDIS } from '../infrastructure/infrastructure.tokens.js';
import { HealthController } from './health.controller.js';
import { HEALTH_CHECKS } from './health.tokens.js';

/** Per check; below the probe timeouts deployments commonly set (2-5 s). */
const READINESS_TIMEOUT_MS = 2_000;

@Module({
  controllers: [HealthController],
  providers: [
    {
      provide: HEALTH_CHECKS,
      inject: [DATABASE, REDIS, LOGGER],
      useFactory: (database: Database, redis: Redis, logger: Logger) =>
        new HealthChecks(
          { postgres: () => database.ping(), redis: redisCheck(redis) },
          {
            timeoutMs: READINESS_TIMEOUT_MS,
            onFailure: (check, reason, error) =>
              logger.warn({ check, reason, err: error }, 'readiness check failed'),
          },
        ),
    },
  ],
})
export class HealthModule {}
