import type { Database } from '@gatehouse/db';
import type { Logger, NodeEnv } from '@gatehouse/platform';
import type { Redis } from 'ioredis';
import { AuditCheckpointLogger } from '../audit/audit-checkpoint.logger';
import { createTrustedProxies, type TrustedProxies } from './client-ip';
import { LoginThrottle, DEFAULT_LOGIN_THROTTLE_LIMITS, type LoginThrottleLimits } from './login-throttle';
import { PasswordHasher } from './password-hasher';
import type { AuthDeps } from './resolve-principal';
import { DEFAULT_SESSION_POLICY, type SessionPolicy } from './session-policy';
import { SignInUseCase } from './sign-in.use-case';
import { SignOutUseCase } from './sign-out.use-case';
import { DEFAULT_TOKEN_CACHE_TTL_MS, TokenLookupCache } from './token-lookup.cache';

/** Everything the identity routes and `resolvePrincipal` need, built once per process. */
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

export interface CreateIdentityDepsOptions {
  readonly db: Database;
  /** A `command` connection (createRedisConnection): the login throttle's counters. */
  readonly redis: Redis;
  readonly logger: Logger;
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

export function createIdentityDeps(options: CreateIdentityDepsOptions): IdentityDeps {
  const sessionPolicy = options.sessionPolicy ?? DEFAULT_SESSION_POLICY;
  const now = options.now;
  const auth: AuthDeps = {
    db: options.db,
    sessionPolicy,
    ...(now ? { now } : {}),
    tokenCache: new TokenLookupCache({ ttlMs: options.tokenCacheTtlMs ?? DEFAULT_TOKEN_CACHE_TTL_MS }),
  };
  const throttle = new LoginThrottle(
    options.redis,
    options.redisKeyPrefix ?? 'gatehouse:',
    options.throttleLimits ?? DEFAULT_LOGIN_THROTTLE_LIMITS,
  );
  const hasher = options.hasher ?? new PasswordHasher();
  return {
    auth,
    signIn: new SignInUseCase({
      db: options.db,
      hasher,
      throttle,
      sessionPolicy,
      ...(now ? { now } : {}),
    }),
    signOut: new SignOutUseCase(options.db),
    hasher,
    throttle,
    trustedProxies: createTrustedProxies(options.trustedProxies),
    secureCookies: options.nodeEnv === 'production',
    logger: options.logger,
    checkpoints: new AuditCheckpointLogger(options.logger),
  };
}
