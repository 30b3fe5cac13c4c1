import type { Resolver } from '@gatehouse/egress';
import type { Logger } from '@gatehouse/platform';
import { Module } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { CheckAdmissionDeps } from '../admission/admission-deps';
import type { WorkerPools } from '../auth/pool-config';
import type { ApiConfig } from '../config/api.config';
import { CHECK_ADMISSION_DEPS, WORKER_POOLS } from '../infrastructure/command-deps-tokens';
import { API_CONFIG, LOGGER, REDIS } from '../infrastructure/infrastructure-tokens';
import { LeaseAccessTokens } from './lease-access-tokens';
import { createOAuthRuntime, OAUTH_RUNTIME } from './oauth-runtime';

/**
 * The upstream OAuth machinery (decision 0062) that sign-in and leases share: the runtime (sealed stores, client
 * registrations, the refresh coordinator) and the access tokens a lease carries.
 */
@Module({
  providers: [
    {
      provide: OAUTH_RUNTIME,
      inject: [API_CONFIG, LOGGER, REDIS, WORKER_POOLS, CHECK_ADMISSION_DEPS],
      useFactory: (
        config: ApiConfig,
        logger: Logger,
        redis: Redis,
        pools: WorkerPools,
        admission: CheckAdmissionDeps,
      ) =>
        createOAuthRuntime({ config, logger, redis, pools, resolver: admission.resolver satisfies Resolver }),
    },
    LeaseAccessTokens,
  ],
  exports: [OAUTH_RUNTIME, LeaseAccessTokens],
})
export class OAuthCredentialsModule {}
