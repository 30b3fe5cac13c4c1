// The stack of the gateway's specs of an upstream behind an access token (decisions 0082 and 0098),
// set up once here (decision 0121): the real API on loopback with PUBLIC_URL (the sign-in's callback) and the
// spec's own QUEUE_PREFIX and REDIS_KEY_PREFIX, oidc-provider, the token-refusing upstream of libs/testing, one
// tenant (an admin, an approver, a member), the worker and gateway tokens, the server defined, approved, signed in
// to by the member and discovered for them, and the gateway under the same REDIS_KEY_PREFIX. The OIDC provider and
// PUBLIC_URL are why this is not the acceptance harness (gateway-stack.harness.ts), whose steps it takes.
import { randomUUID } from 'node:crypto';
import { Client as Pg, type QueryResultRow } from 'pg';
import { createDatabase, type Database } from '@gatehouse/db';
import { createFixedResolver } from '@gatehouse/egress';
import { createLogger, parseConfig } from '@gatehouse/platform';
import {
  createApiSteps,
  createTestDatabase,
  createTestTenant,
  createTestWorkspace,
  followSignIn,
  OidcProviderProcess,
  startTokenRefusingUpstream,
  testApiEnv,
  testRedisUrl,
  type ApiSteps,
  type TestDatabase,
  type TestNamespaces,
  type TestTenant,
  type TestUser,
  type TokenRefusingUpstream,
} from '@gatehouse/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
// The gateway's peer is the real API (sign-in, leases with access tokens, the refresh once): a test reaching for
// its real peer is the one place an app imports another.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { mintApiToken } from '../../../../api/src/auth/mint-api-token.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createMember, mintTestToken } from '../../../../api/src/commands/testing/surfaces-harness.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { apiConfigSchema } from '../../../../api/src/config/api.config.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createApiApp } from '../../../../api/src/create-api-app.js';
import { connectSdkClient, insertTestGatewayToken } from '../../acceptance/gateway-stack.harness.js';
import { gatewayConfigSchema } from '../../config/gateway.config.js';
import { createGatewayApp } from '../../create-gateway-app.js';

const PUBLIC_URL = 'http://127.0.0.1:4000';
const REDIRECT_URI = `${PUBLIC_URL}/v1/oauth/callback`;
const POOL = 'local';
const CHILD_PATH = '/usr/bin:/bin';

export type SignedInWho = 'admin' | 'approver' | 'member' | 'worker' | 'gateway';

export interface SignedInStackOptions {
  /** The loggers' and the discovery client's name. */
  readonly name: string;
  /** The spec's own queue and Redis key namespaces (the API's; the gateway subscribes under REDIS_KEY_PREFIX). */
  readonly namespaces: TestNamespaces;
  /** The server's name in the managed definition source. */
  readonly server: string;
  /** The issuer's access-token lifetime (its default unless given). */
  readonly accessTokenTtlSeconds?: number;
  /** The body of the upstream's 401 (what the gateway must never pass on). */
  readonly refusalBody: string;
}

export interface LeaseBody {
  id: string;
  transport: { transport: { oauth?: { accessToken: string } } };
  source: { tier: 'managed'; origin: string };
}

export interface SignedInStack {
  readonly testDb: TestDatabase;
  readonly db: Database;
  readonly api: NestFastifyApplication;
  readonly gateway: NestFastifyApplication;
  readonly provider: OidcProviderProcess;
  readonly upstream: TokenRefusingUpstream;
  readonly acme: TestTenant;
  readonly workspaceId: string;
  readonly member: TestUser;
  readonly steps: ApiSteps<SignedInWho>;
  /** A lease for the member, as the worker asks it. */
  memberLease(): Promise<LeaseBody>;
  /** The member's current access token, as a lease carries it (the lease released at once). */
  currentToken(): Promise<string>;
  /** The server's leases issued since `since` (as the database superuser reads them): a query's rows. */
  leaseRows<Row extends QueryResultRow>(sql: string, since: Date): Promise<Row[]>;
  /** A real SDK client of the member on the workspace endpoint. */
  connect(): Promise<Client>;
  /** Before each case: the upstream takes every token again and has seen nothing; the issuer's counts are 0. */
  resetUpstream(): Promise<void>;
  close(): Promise<void>;
}

export async function startSignedInStack(options: SignedInStackOptions): Promise<SignedInStack> {
  const { server } = options;
  const testDb = await createTestDatabase();
  const db = createDatabase({ url: testDb.appUrl, poolMax: 3 });
  const provider = await OidcProviderProcess.start({
    clients: [],
    ...(options.accessTokenTtlSeconds !== undefined
      ? { accessTokenTtlSeconds: options.accessTokenTtlSeconds }
      : {}),
  });
  const upstream = await startTokenRefusingUpstream({
    issuer: provider.issuer,
    refusalBody: options.refusalBody,
  });
  const acme = await createTestTenant(db, { slug: `acme-${randomUUID().slice(0, 8)}` });
  const admin = await createMember(db, acme, 'admin');
  const approver = await createMember(db, acme, 'approver');
  const member = await createMember(db, acme, 'member');
  const workspaceId = (await createTestWorkspace(db, acme.id)).id;
  const tokens: Record<SignedInWho, string> = {
    admin: (await mintTestToken(db, acme, admin, { kind: 'user' })).secret,
    approver: (await mintTestToken(db, acme, approver, { kind: 'user' })).secret,
    member: (await mintTestToken(db, acme, member, { kind: 'user' })).secret,
    worker: await db.withTenant(acme.id, async (tx) => {
      const minted = await mintApiToken(tx, {
        tenantId: acme.id,
        createdById: admin.id,
        name: 'worker local',
        grant: {
          kind: 'worker',
          userId: null,
          scopes: ['leases:write', 'snapshots:write', 'revocations:read'],
          workspaceIds: [],
          pool: POOL,
        },
        expiresAt: null,
      });
      return minted.secret;
    }),
    gateway: await insertTestGatewayToken(testDb.ownerUrl, POOL),
  };
  const parsed = parseConfig(
    apiConfigSchema,
    testApiEnv(testDb.appUrl, {
      ...options.namespaces,
      PUBLIC_URL,
      WORKER_POOLS: JSON.stringify({ [POOL]: { tenants: [acme.slug], allowInsecureLoopback: true } }),
    }),
  );
  if (!parsed.ok) throw new Error(parsed.message);
  const api = await createApiApp(parsed.config, {
    logger: createLogger({ name: `${options.name}-api`, level: 'silent' }),
    egressResolver: createFixedResolver({}),
  });
  await api.listen({ host: '127.0.0.1', port: 0 });
  const steps = createApiSteps<SignedInWho>({
    api,
    tokens,
    workspaceId,
    admin: 'admin',
    approver: 'approver',
    worker: 'worker',
    discovery: { clientName: options.name, searchPath: CHILD_PATH },
  });
  await steps.defineServers(
    'admin',
    'managed',
    { [server]: { type: 'http', url: `${upstream.origin}/mcp`, oauth: { scopes: ['mcp:tools'] } } },
    'oauth',
  );
  await steps.approve(server);
  const started = await steps.expectOk(
    steps.rest('member', 'POST', `/v1/workspaces/${workspaceId}/oauth/sign-in`, { serverName: server }),
    201,
  );
  const redirectUrl = await followSignIn(started.authorizationUrl as string, REDIRECT_URI);
  await steps.expectOk(steps.rest('member', 'POST', '/v1/oauth/sign-in/complete', { redirectUrl }));
  await steps.discoverAndSubmit(server, member.id);

  const config = parseConfig(gatewayConfigSchema, {
    LOG_LEVEL: 'silent',
    REDIS_URL: testRedisUrl(),
    REDIS_KEY_PREFIX: options.namespaces.REDIS_KEY_PREFIX,
    API_URL: await api.getUrl(),
    GATEWAY_TOKEN: tokens.gateway,
    CHILD_PATH,
    CHILD_USER: 'self',
  });
  if (!config.ok) throw new Error(config.message);
  const gateway = await createGatewayApp(config.config, {
    logger: createLogger({ name: options.name, level: 'silent' }),
  });
  await gateway.listen({ host: '127.0.0.1', port: 0 });
  const gatewayUrl = await gateway.getUrl();

  const memberLease = async (): Promise<LeaseBody> =>
    (await steps.expectOk(
      steps.rest('worker', 'POST', '/v1/leases', {
        workspaceId,
        serverName: server,
        principalUserId: member.id,
      }),
      201,
    )) as unknown as LeaseBody;

  return {
    testDb,
    db,
    api,
    gateway,
    provider,
    upstream,
    acme,
    workspaceId,
    member,
    steps,
    memberLease,
    async currentToken() {
      const lease = await memberLease();
      await steps.expectOk(steps.rest('worker', 'POST', `/v1/leases/${lease.id}/release`));
      if (lease.transport.transport.oauth === undefined) throw new Error('the lease carries no access token');
      return lease.transport.transport.oauth.accessToken;
    },
    async leaseRows<Row extends QueryResultRow>(sql: string, since: Date) {
      const owner = new Pg({ connectionString: testDb.adminUrl });
      await owner.connect();
      try {
        return (await owner.query<Row>(sql, [workspaceId, server, since])).rows;
      } finally {
        await owner.end();
      }
    },
    connect: () => connectSdkClient(new URL(`/mcp/w/${workspaceId}`, gatewayUrl), tokens.member),
    async resetUpstream() {
      upstream.refused.clear();
      upstream.refuseAll.value = false;
      upstream.seen.length = 0;
      await provider.configure({ resetStats: true });
    },
    async close() {
      await gateway.close();
      await api.close();
      await upstream.close();
      await provider.stop();
      await db.close();
      await testDb.drop();
    },
  };
}
