import type { Resolver } from '@gatehouse/egress';
import type { Logger } from '@gatehouse/platform';
import { Module } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { CheckAdmissionDeps } from '../admission/admission-deps';
import type { WorkerPools } from '../auth/pool-config';
import type { ApiConfig } from '../config/api.config';
import { CHECK_ADMISSION_DEPS, WORKER_POOLS } from '../infrastructure/command-deps-tokens';
import { API_CONFIG, LOGGER, REDIS } from '../infrastructure/infrastructure-tokens';
import { createOAuthRuntime, OAUTH_RUNTIME } from './oauth-runtime';
import { ChooseServiceCredentialUseCase } from './choose-service-credential.use-case';
import { LeaseAccessTokens } from './lease-access-tokens';
import { CompleteOAuthSignInUseCase } from './complete-oauth-sign-in.use-case';
import { ListOAuthCredentialsUseCase } from './list-oauth-credentials.use-case';
import { ListServiceCredentialsUseCase } from './list-service-credentials.use-case';
import { SignOutOAuthUseCase } from './sign-out-oauth.use-case';
import { SignOutServiceCredentialUseCase } from './sign-out-service-credential.use-case';
import { StartOAuthSignInUseCase } from './start-oauth-sign-in.use-case';
import { EffectiveViewModule } from '../effective-view/effective-view.module';

/** Upstream OAuth sign-in (decision 0062): the commands and what they are built with. */
@Module({
  imports: [EffectiveViewModule],
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
    StartOAuthSignInUseCase,
    CompleteOAuthSignInUseCase,
    ListOAuthCredentialsUseCase,
    SignOutOAuthUseCase,
    ChooseServiceCredentialUseCase,
    ListServiceCredentialsUseCase,
    SignOutServiceCredentialUseCase,
    LeaseAccessTokens,
  ],
  exports: [OAUTH_RUNTIME, LeaseAccessTokens],
})
export class OAuthModule {}
