import type { Database } from '@gatehouse/db';
import type { Logger } from '@gatehouse/platform';
import { Module, type DynamicModule } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { AuditCheckpointLogger } from '../audit/audit-checkpoint-logger';
import { DATABASE, LOGGER, REDIS } from '../infrastructure/infrastructure-tokens';
import { createTrustedProxies } from './client-ip';
import type { IdentityDeps, IdentitySettings } from './identity-deps';
import { IDENTITY_DEPS, IDENTITY_SETTINGS, SIGN_IN_DEPS } from './identity-tokens';
import { DEFAULT_LOGIN_THROTTLE_LIMITS, LoginThrottle } from './login-throttle';
import { PasswordHasher } from './password-hasher';
import type { AuthDeps } from './resolve-principal';
import { DEFAULT_SESSION_POLICY } from './session-policy';
import { SignInUseCase, type SignInDeps } from './sign-in.use-case';
import { SignOutUseCase } from './sign-out.use-case';
import { DEFAULT_TOKEN_CACHE_TTL_MS, TokenLookupCache } from './token-lookup-cache';

/**
 * Identity's half that is not a command: sign-in and sign-out (the dashboard's session routes), the login
 * throttle and hasher they share with the invitation link, and the bearer/session resolution every surface
 * uses. The use cases are providers like every command's; their database, Redis connection and logger are the
 * app's (DATABASE, REDIS — a `command` connection —, LOGGER, global in the API). Exports IDENTITY_DEPS, the
 * object the routes take.
 */
@Module({})
export class IdentityAuthModule {
  static forRoot(settings: IdentitySettings): DynamicModule {
    return {
      module: IdentityAuthModule,
      providers: [
        { provide: IDENTITY_SETTINGS, useValue: settings },
        { provide: PasswordHasher, useValue: settings.hasher ?? new PasswordHasher() },
        {
          provide: LoginThrottle,
          inject: [REDIS],
          useFactory: (redis: Redis) =>
            new LoginThrottle(
              redis,
              settings.redisKeyPrefix ?? 'gatehouse:',
              settings.throttleLimits ?? DEFAULT_LOGIN_THROTTLE_LIMITS,
            ),
        },
        {
          provide: SIGN_IN_DEPS,
          inject: [DATABASE, PasswordHasher, LoginThrottle, LOGGER],
          useFactory: (
            db: Database,
            hasher: PasswordHasher,
            throttle: LoginThrottle,
            logger: Logger,
          ): SignInDeps => ({
            db,
            hasher,
            throttle,
            logger,
            sessionPolicy: settings.sessionPolicy ?? DEFAULT_SESSION_POLICY,
            ...(settings.now ? { now: settings.now } : {}),
          }),
        },
        SignInUseCase,
        SignOutUseCase,
        {
          provide: IDENTITY_DEPS,
          inject: [DATABASE, LOGGER, SignInUseCase, SignOutUseCase, PasswordHasher, LoginThrottle],
          useFactory: (
            db: Database,
            logger: Logger,
            signIn: SignInUseCase,
            signOut: SignOutUseCase,
            hasher: PasswordHasher,
            throttle: LoginThrottle,
          ): IdentityDeps => {
            const auth: AuthDeps = {
              db,
              sessionPolicy: settings.sessionPolicy ?? DEFAULT_SESSION_POLICY,
              ...(settings.now ? { now: settings.now } : {}),
              tokenCache: new TokenLookupCache({
                ttlMs: settings.tokenCacheTtlMs ?? DEFAULT_TOKEN_CACHE_TTL_MS,
              }),
            };
            return {
              auth,
              signIn,
              signOut,
              hasher,
              throttle,
              trustedProxies: createTrustedProxies(settings.trustedProxies),
              secureCookies: settings.nodeEnv === 'production',
              logger,
              checkpoints: new AuditCheckpointLogger(logger),
            };
          },
        },
      ],
      exports: [IDENTITY_DEPS],
    };
  }
}
