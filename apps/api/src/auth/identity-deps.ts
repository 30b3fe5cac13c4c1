import type { Database } from '@gatehouse/db';
import type { Logger, NodeEnv } from '@gatehouse/platform';
import { Module, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Redis } from 'ioredis';
import type { AuditCheckpointLogger } from '../audit/audit-checkpoint-logger';
import { DATABASE, LOGGER, REDIS } from '../infrastructure/infrastructure-tokens';
import type { TrustedProxies } from './client-ip';
import { IdentityAuthModule } from './identity-auth.module';
import { IDENTITY_DEPS } from './identity-tokens';
import type { LoginThrottle, LoginThrottleLimits } from './login-throttle';
import type { PasswordHasher } from './password-hasher';
import type { AuthDeps } from './resolve-principal';
import type { SessionPolicy } from './session-policy';
import type { SignInUseCase } from './sign-in.use-case';
import type { SignOutUseCase } from './sign-out.use-case';

/** Everything the identity routes and `resolvePrincipal` need, built once per process (IdentityAuthModule). */
export interface IdentityDeps {
  readonly auth: AuthDeps;
  readonly signIn: SignInUseCase;
  readonly signOut: SignOutUseCase;
  /** The same hasher and throttle sign-in uses (the invitation link checks and sets passwords too). */
  readonly hasher: PasswordHasher;
  readonly throttle: LoginThrottle;
  readonly trustedProxies: TrustedProxies;
  /** Secure cookies everywhere but development and test (plain http://localhost). */
  readonly secureCookies: boolean;
  readonly logger: Logger;
  /** Sign-in and sign-out append audit events outside the command handlers: the routes run them in `run`. */
  readonly checkpoints: AuditCheckpointLogger;
}

/** What IdentityAuthModule is configured with; the database, Redis and logger are injected. */
export interface IdentitySettings {
  readonly nodeEnv: NodeEnv;
  /** TRUSTED_PROXIES: IPs/CIDRs whose X-Forwarded-For is believed. */
  readonly trustedProxies: readonly string[];
  readonly sessionPolicy?: SessionPolicy;
  readonly throttleLimits?: LoginThrottleLimits;
  /** Namespace of the throttle's Redis keys; `gatehouse:` by default, a random one per test file. */
  readonly redisKeyPrefix?: string;
  readonly hasher?: PasswordHasher;
  readonly now?: () => Date;
  /**
   * How long a bearer token's lookup is served from this process's cache (DEFAULT_TOKEN_CACHE_TTL_MS); 0
   * asks the database on every request (tests that change tokens by writing the database directly).
   */
  readonly tokenCacheTtlMs?: number;
}

export interface CreateIdentityDepsOptions extends IdentitySettings {
  readonly db: Database;
  /** A `command` connection (createRedisConnection): the login throttle's counters. */
  readonly redis: Redis;
  readonly logger: Logger;
}

@Module({})
class IdentityValuesModule {
  static of(options: CreateIdentityDepsOptions): DynamicModule {
    return {
      module: IdentityValuesModule,
      global: true,
      providers: [
        { provide: DATABASE, useValue: options.db },
        { provide: REDIS, useValue: options.redis },
        { provide: LOGGER, useValue: options.logger },
      ],
      exports: [DATABASE, REDIS, LOGGER],
    };
  }
}

@Module({})
class IdentityContextRoot {}

/**
 * IdentityDeps as the API builds them (IdentityAuthModule), outside the API's application: for harnesses that
 * mount the identity routes on a plain Fastify instance. The Nest context owns nothing that needs closing (the
 * database, Redis and logger stay the caller's), so it is not returned.
 */
export async function createIdentityDeps(options: CreateIdentityDepsOptions): Promise<IdentityDeps> {
  const { db: _db, redis: _redis, logger: _logger, ...settings } = options;
  const identity = IdentityAuthModule.forRoot(settings);
  const context = await NestFactory.createApplicationContext(
    { module: IdentityContextRoot, imports: [IdentityValuesModule.of(options), identity] },
    { logger: false, abortOnError: false },
  );
  // Read from the module that provides it, not searched for across the context.
  return context.select(identity).get<IdentityDeps>(IDENTITY_DEPS, { strict: true });
}
