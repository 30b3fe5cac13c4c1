import { randomBytes } from 'node:crypto';
import {
  COMMANDS,
  ROLE_SCOPES,
  type CommandDefinition,
  type MembershipRole,
  type Scope,
  type TokenKind,
} from '@gatehouse/commands';
import { closeRedis, createRedisConnection } from '@gatehouse/coordination';
import { EnvelopeCipher, KeyRing } from '@gatehouse/crypto';
import { createDatabase, type Database } from '@gatehouse/db';
import { createLogger, installProblemJsonHandlers } from '@gatehouse/platform';
import {
  createTestDatabase,
  createTestRedisPrefix,
  createTestTenant,
  createTestUser,
  testRedisUrl,
  type TestDatabase,
  type TestTenant,
  type TestUser,
} from '@gatehouse/testing';
import type { ModuleMetadata } from '@nestjs/common';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { registerAuthRoutes } from '../../auth/auth.routes';
import { createIdentityDeps, type IdentityDeps } from '../../auth/identity-deps';
import { existingWorkspaceIds, mintApiToken } from '../../auth/mint-api-token';
import { DEFAULT_WORKER_POOLS, type WorkerPools } from '../../auth/pool-config';
import { resolvePrincipal } from '../../auth/resolve-principal';
import { decideTokenCreation } from '../../auth/token-creation.policy';
import { TEST_HASHER } from '../../auth/testing/identity-harness';
import { DefinitionCipher } from '../../effective-view/definition-cipher';
import { createCommandHandlerContext } from '../../command-handlers-context';
import { testCommandInfrastructure } from './command-infrastructure.harness';
import { installNulCharacterGuard } from '../../http/nul-character.guard';
import { registerInvitationLinkRoutes } from '../../tenancy/invitation-link.routes';
import { registerAdminSurfaces } from '../../register-admin-surfaces';

// Integration-test harness for the generated surfaces: a real Fastify app with the identity routes, the
// command routes, OpenAPI and GraphQL, over a fresh migrated database and the real Redis. Tokens are minted
// through the identity module's own policy and `mintApiToken`, exactly as `tokens.create` does.

export const TEST_PASSWORD = 'correct horse battery staple';

export interface SurfacesHarness {
  readonly app: FastifyInstance;
  readonly db: Database;
  readonly testDb: TestDatabase;
  readonly identity: IdentityDeps;
  /**
   * Problem codes a use case answered that its declaration does not list (`command: code`): `close()` fails the
   * test file when any was seen, so a declaration's list cannot fall behind what its use case throws.
   */
  readonly undeclaredProblems: readonly string[];
  close(): Promise<void>;
}

export interface SurfacesHarnessOptions {
  /** Further Nest modules whose @HandlesCommand providers join the discovery (a throwaway test command). */
  readonly imports?: ModuleMetadata['imports'];
  /** The registry the surfaces are generated from; COMMANDS by default. */
  readonly commands?: readonly CommandDefinition[];
  /** The operator's WORKER_POOLS; DEFAULT_WORKER_POOLS by default. The surfaces read it on every call. */
  readonly workerPools?: WorkerPools;
  /** Where the API's log lines go, at debug level (a secret canary greps them); silent when absent. */
  readonly logLines?: string[];
}

/** A pino destination that keeps each written line. */
function lineCollector(lines: string[]): { write(line: string): void } {
  return { write: (line) => void lines.push(line) };
}

export async function createSurfacesHarness(options: SurfacesHarnessOptions = {}): Promise<SurfacesHarness> {
  const testDb = await createTestDatabase();
  const db = createDatabase({ url: testDb.appUrl, poolMax: 6 });
  const redis: Redis = createRedisConnection({
    url: testRedisUrl(),
    name: 'surfaces-test',
    purpose: 'command',
  });
  const logger = options.logLines
    ? createLogger({ name: 'surfaces-test', level: 'debug', destination: lineCollector(options.logLines) })
    : createLogger({ name: 'surfaces-test', level: 'silent' });
  const identity = await createIdentityDeps({
    db,
    redis,
    logger,
    nodeEnv: 'test',
    trustedProxies: [],
    redisKeyPrefix: createTestRedisPrefix(),
    hasher: TEST_HASHER,
  });

  const app = Fastify({ logger: false });
  installProblemJsonHandlers(app, logger);
  // As createApiApp does: a root hook, before any route.
  installNulCharacterGuard(app);
  registerAuthRoutes(app, identity);
  registerInvitationLinkRoutes(app, identity);
  const commands = options.commands ?? COMMANDS;
  const workerPools = options.workerPools ?? DEFAULT_WORKER_POOLS;
  const useCases = await createCommandHandlerContext({
    database: db,
    infrastructure: testCommandInfrastructure({ databaseUrl: testDb.appUrl, logger, redis }),
    workerPools,
    definitionCipher: testDefinitionCipher(),
    imports: options.imports,
    commands,
  });
  const undeclaredProblems: string[] = [];
  await registerAdminSurfaces(app, {
    handlers: useCases.handlers,
    commands,
    resolvePrincipal: (request) => resolvePrincipal(request, identity.auth),
    logger,
    workerPools,
    onUndeclaredProblem: (command, code) => void undeclaredProblems.push(`${command}: ${code}`),
  });
  await app.ready();

  return {
    app,
    db,
    testDb,
    identity,
    undeclaredProblems,
    async close() {
      await app.close();
      await useCases.close();
      await db.close();
      await closeRedis(redis);
      await testDb.drop();
      if (undeclaredProblems.length > 0) {
        const seen = [...new Set(undeclaredProblems)].join('; ');
        throw new Error(`use cases answered problem codes their declarations do not list: ${seen}`);
      }
    },
  };
}

/**
 * A real key ring with a fresh random key, as an operator's GATEHOUSE_KEYS would give: the definition commands
 * seal and open documents and variable values with it (without one they fail as a wiring bug, by design).
 */
function testDefinitionCipher(): DefinitionCipher {
  const parsed = KeyRing.parse({ keys: `k1:${randomBytes(32).toString('base64')}`, activeKeyId: 'k1' });
  if (!parsed.ok) throw new Error(`test key ring refused: ${parsed.reason}`);
  return new DefinitionCipher(new EnvelopeCipher(parsed.keyRing));
}

export interface TokenRequest {
  readonly kind: Exclude<TokenKind, 'gateway'>;
  readonly scopes?: readonly Scope[];
  readonly workspaceIds?: readonly string[];
  readonly pool?: string;
}

/** A bearer token minted by the identity module's rules on behalf of `creator` (an owner for agent/worker). */
export async function mintTestToken(
  db: Database,
  tenant: TestTenant,
  creator: TestUser,
  request: TokenRequest,
): Promise<{ secret: string; id: string }> {
  const role: MembershipRole = creator.role;
  return db.withTenant(tenant.id, async (tx) => {
    const workspaceIds = [...(request.workspaceIds ?? [])];
    const decision = decideTokenCreation(
      { tenantSlug: tenant.slug, userId: creator.id, role, scopes: ROLE_SCOPES[role] },
      {
        kind: request.kind,
        scopes: request.scopes ?? ROLE_SCOPES[role],
        workspaceIds,
        pool: request.pool ?? null,
      },
      { pools: DEFAULT_WORKER_POOLS, existingWorkspaceIds: await existingWorkspaceIds(tx, workspaceIds) },
    );
    if (!decision.ok) throw new Error(`test token refused: ${decision.reason}`);
    const minted = await mintApiToken(tx, {
      tenantId: tenant.id,
      createdById: creator.id,
      name: `test ${request.kind}`,
      grant: decision.grant,
      expiresAt: null,
    });
    return { secret: minted.secret, id: minted.token.id };
  });
}

export interface WorkerTokenRequest {
  /** A pool of the spec's own WORKER_POOLS. */
  readonly pool: string;
  /** 'worker local' unless told. */
  readonly name?: string;
  /** What a worker needs to lease, post its snapshots and follow revocations, unless told. */
  readonly scopes?: readonly Scope[];
}

/**
 * A worker token (no workspace binding) minted with `mintApiToken` as `tokens.create` does, on behalf of
 * `creator`: without `mintTestToken`'s policy check, whose DEFAULT_WORKER_POOLS do not know the spec's pools.
 */
export async function mintWorkerTestToken(
  db: Database,
  tenant: TestTenant,
  creator: TestUser,
  request: WorkerTokenRequest,
): Promise<string> {
  return db.withTenant(tenant.id, async (tx) => {
    const minted = await mintApiToken(tx, {
      tenantId: tenant.id,
      createdById: creator.id,
      name: request.name ?? 'worker local',
      grant: {
        kind: 'worker',
        userId: null,
        scopes: request.scopes ?? ['leases:write', 'snapshots:write', 'revocations:read'],
        workspaceIds: [],
        pool: request.pool,
      },
      expiresAt: null,
    });
    return minted.secret;
  });
}

/** A tenant member who can sign in with TEST_PASSWORD. */
export async function createMember(
  db: Database,
  tenant: TestTenant,
  role: MembershipRole,
): Promise<TestUser> {
  return createTestUser(db, tenant.id, { role, passwordHash: await TEST_HASHER.hash(TEST_PASSWORD) });
}

export { createTestTenant };

export function bearer(token: string | undefined): Record<string, string> {
  return token === undefined ? {} : { authorization: `Bearer ${token}` };
}
