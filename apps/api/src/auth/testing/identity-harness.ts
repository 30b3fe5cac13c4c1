import { closeRedis, createRedisConnection } from '@gatehouse/coordination';
import { createDatabase, type Database } from '@gatehouse/db';
import { createLogger, installProblemJsonHandlers, type Logger } from '@gatehouse/platform';
import {
  createTestDatabase,
  createTestRedisPrefix,
  testRedisUrl,
  type TestDatabase,
} from '@gatehouse/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { Client } from 'pg';
import { registerAuthRoutes } from '../auth.routes';
import { createIdentityDeps, type CreateIdentityDepsOptions, type IdentityDeps } from '../identity-deps';
import { PasswordHasher } from '../password-hasher';
import { resolvePrincipal, requireTenantPrincipal } from '../resolve-principal';

// Integration-test harness: a real Fastify app with the identity routes and two probe routes that show what
// `resolvePrincipal` / `requireTenantPrincipal` make of a request, over a fresh migrated database and Redis.

/** Cheap argon2 parameters: tests check behaviour, not cost. */
export const TEST_HASHER = new PasswordHasher({ memoryCost: 1024, timeCost: 1, parallelism: 1 });

export const PROBE_READ = '/probe/principal';
export const PROBE_WRITE = '/probe/write';

export interface IdentityHarness {
  readonly app: FastifyInstance;
  readonly db: Database;
  readonly redis: Redis;
  readonly testDb: TestDatabase;
  readonly deps: IdentityDeps;
  /** Runs SQL as the superuser (bypassing RLS): for moving clocks, never for what the app does. */
  asSuperuser(sql: string, params?: readonly unknown[]): Promise<void>;
  close(): Promise<void>;
}

export interface IdentityHarnessOptions extends Partial<
  Pick<CreateIdentityDepsOptions, 'trustedProxies' | 'sessionPolicy' | 'throttleLimits' | 'tokenCacheTtlMs'>
> {
  /** Registers further routes (e.g. the command routes) before the app is ready. */
  readonly extend?: (app: FastifyInstance, deps: IdentityDeps, db: Database) => Promise<void>;
  /** The app's logger (silent when absent): tests that read log lines pass one writing to a buffer. */
  readonly logger?: Logger;
}

export async function createIdentityHarness(options: IdentityHarnessOptions = {}): Promise<IdentityHarness> {
  const testDb = await createTestDatabase();
  const db = createDatabase({ url: testDb.appUrl, poolMax: 4 });
  const redis = createRedisConnection({ url: testRedisUrl(), name: 'identity-test', purpose: 'command' });
  const logger = options.logger ?? createLogger({ name: 'identity-test', level: 'silent' });
  const deps = await createIdentityDeps({
    db,
    redis,
    logger,
    nodeEnv: 'test',
    trustedProxies: options.trustedProxies ?? [],
    redisKeyPrefix: createTestRedisPrefix(),
    hasher: TEST_HASHER,
    ...(options.sessionPolicy ? { sessionPolicy: options.sessionPolicy } : {}),
    ...(options.throttleLimits ? { throttleLimits: options.throttleLimits } : {}),
    // Off unless a test asks: these tests change tokens, roles and users by writing the database directly and
    // expect the next request to see it; token-lookup-cache.int-spec.ts tests the cache itself.
    tokenCacheTtlMs: options.tokenCacheTtlMs ?? 0,
  });

  const app = Fastify({ logger: false });
  installProblemJsonHandlers(app, logger);
  registerAuthRoutes(app, deps);
  app.get(PROBE_READ, async (request) => ({ principal: await resolvePrincipal(request, deps.auth) }));
  app.post(PROBE_WRITE, async (request) => {
    const principal = await requireTenantPrincipal(request, deps.auth);
    return { via: principal.via };
  });
  await options.extend?.(app, deps, db);
  await app.ready();

  return {
    app,
    db,
    redis,
    testDb,
    deps,
    async asSuperuser(sql, params = []) {
      const client = new Client({ connectionString: testDb.adminUrl });
      await client.connect();
      try {
        await client.query(sql, [...params]);
      } finally {
        await client.end();
      }
    },
    async close() {
      await app.close();
      await db.close();
      await closeRedis(redis);
      await testDb.drop();
    },
  };
}
