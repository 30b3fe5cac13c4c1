import { randomUUID } from 'node:crypto';
import { Client as Pg } from 'pg';
import { createDatabase, type Database } from '@gatehouse/db';
import { createFixedResolver } from '@gatehouse/egress';
import { createLogger, parseConfig } from '@gatehouse/platform';
import {
  bearerDigestOf,
  createApiSteps,
  createTestDatabase,
  createTestTenant,
  createTestWorkspace,
  followSignIn,
  OidcProviderProcess,
  startTokenRefusingUpstream,
  testApiEnv,
  testNamespaces,
  testRedisUrl,
  TEST_DATABASE_TIMEOUT_MS,
  type ApiSteps,
  type TestDatabase,
  type TestTenant,
  type TestUser,
  type TokenRefusingUpstream,
} from '@gatehouse/testing';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
// The gateway's peer is the real API (sign-in, leases with access tokens, the refresh once): a test reaching for
// its real peer is the one place an app imports another.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { mintApiToken } from '../../../api/src/auth/mint-api-token.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createMember, mintTestToken } from '../../../api/src/commands/testing/surfaces-harness.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { apiConfigSchema } from '../../../api/src/config/api.config.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createApiApp } from '../../../api/src/create-api-app.js';
import { connectSdkClient, insertTestGatewayToken } from '../acceptance/gateway-stack.harness.js';
import { gatewayConfigSchema } from '../config/gateway.config.js';
import { createGatewayApp } from '../create-gateway-app.js';

// An upstream 401 on a gateway lease that carries an access token (issue 15, decisions 0082 and 0098), through the
// real API and gateway: the member signs in through the API against oidc-provider on loopback; the upstream MCP
// server (an in-process SDK server) takes a bearer unless the test has had it refuse that token (as an issuer
// that revoked it). The gateway retries once per connection with a fresh lease asked with the refused token's
// digest (the API refreshes it: one grant), and a second 401 is `auth`, typed and content-free. Leases are
// released with the connection.

jest.setTimeout(120_000);

const PUBLIC_URL = 'http://127.0.0.1:4000';
const REDIRECT_URI = `${PUBLIC_URL}/v1/oauth/callback`;
const POOL = 'local';
/** This file's own queue and revocation namespaces (its API's; its gateway subscribes under REDIS_KEY_PREFIX). */
const namespaces = testNamespaces();
const SERVER = 'signed';
const TOOL = `mcp__${SERVER}__echo`;

let testDb: TestDatabase;
let db: Database;
let api: NestFastifyApplication;
let gateway: NestFastifyApplication;
let gatewayUrl: string;
let provider: OidcProviderProcess;
let upstream: TokenRefusingUpstream;
let acme: TestTenant;
let workspaceId: string;
let member: TestUser;
const tokens = { admin: '', approver: '', member: '', worker: '', gateway: '' };
let steps: ApiSteps<keyof typeof tokens>;

interface LeaseBody {
  id: string;
  transport: { transport: { oauth?: { accessToken: string } } };
  source: { tier: 'managed'; origin: string };
}

/** A lease for the member, as the worker asks it. */
async function memberLease(): Promise<LeaseBody> {
  return (await steps.expectOk(
    steps.rest('worker', 'POST', '/v1/leases', {
      workspaceId,
      serverName: SERVER,
      principalUserId: member.id,
    }),
    201,
  )) as unknown as LeaseBody;
}

/** The member's current access token, as a lease carries it (the lease released at once). */
async function currentToken(): Promise<string> {
  const lease = await memberLease();
  await steps.expectOk(steps.rest('worker', 'POST', `/v1/leases/${lease.id}/release`));
  if (lease.transport.transport.oauth === undefined) throw new Error('the lease carries no access token');
  return lease.transport.transport.oauth.accessToken;
}

type LeaseRow = { released: boolean; revoked: boolean };

/** The server's leases since `since`, as the database superuser reads them. */
async function leasesSince(since: Date): Promise<LeaseRow[]> {
  const owner = new Pg({ connectionString: testDb.adminUrl });
  await owner.connect();
  try {
    const result = await owner.query<LeaseRow>(
      `SELECT released_at IS NOT NULL AS released, revoked_at IS NOT NULL AS revoked FROM leases
        WHERE workspace_id = $1 AND server_name = $2 AND issued_at >= $3 ORDER BY issued_at`,
      [workspaceId, SERVER, since],
    );
    return result.rows;
  } finally {
    await owner.end();
  }
}

/** A real SDK client of the member on the workspace endpoint. */
const connect = () => connectSdkClient(new URL(`/mcp/w/${workspaceId}`, gatewayUrl), tokens.member);

/** The JSON-RPC error a call through the gateway ended with. */
async function refusalOf(call: Promise<unknown>): Promise<McpError> {
  const error = await call.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof McpError)) throw new Error(`expected a JSON-RPC error, got ${String(error)}`);
  return error;
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 3 });
  provider = await OidcProviderProcess.start({ clients: [] });
  upstream = await startTokenRefusingUpstream({
    issuer: provider.issuer,
    refusalBody: '{"error":"invalid_token","error_description":"upstream secret words"}',
  });
  acme = await createTestTenant(db, { slug: `acme-${randomUUID().slice(0, 8)}` });
  const admin = await createMember(db, acme, 'admin');
  const approver = await createMember(db, acme, 'approver');
  member = await createMember(db, acme, 'member');
  workspaceId = (await createTestWorkspace(db, acme.id)).id;
  tokens.admin = (await mintTestToken(db, acme, admin, { kind: 'user' })).secret;
  tokens.approver = (await mintTestToken(db, acme, approver, { kind: 'user' })).secret;
  tokens.member = (await mintTestToken(db, acme, member, { kind: 'user' })).secret;
  tokens.worker = await db.withTenant(acme.id, async (tx) => {
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
  });
  tokens.gateway = await insertTestGatewayToken(testDb.ownerUrl, POOL);
  const parsed = parseConfig(
    apiConfigSchema,
    testApiEnv(testDb.appUrl, {
      ...namespaces,
      PUBLIC_URL,
      WORKER_POOLS: JSON.stringify({ [POOL]: { tenants: [acme.slug], allowInsecureLoopback: true } }),
    }),
  );
  if (!parsed.ok) throw new Error(parsed.message);
  api = await createApiApp(parsed.config, {
    logger: createLogger({ name: 'upstream-401-gateway-test-api', level: 'silent' }),
    egressResolver: createFixedResolver({}),
  });
  await api.listen({ host: '127.0.0.1', port: 0 });
  steps = createApiSteps({
    api,
    tokens,
    workspaceId,
    admin: 'admin',
    approver: 'approver',
    worker: 'worker',
    discovery: { clientName: 'upstream-401-gateway-test', searchPath: '/usr/bin:/bin' },
  });
  await steps.defineServers(
    'admin',
    'managed',
    { [SERVER]: { type: 'http', url: `${upstream.origin}/mcp`, oauth: { scopes: ['mcp:tools'] } } },
    'oauth',
  );
  await steps.approve(SERVER);
  const started = await steps.expectOk(
    steps.rest('member', 'POST', `/v1/workspaces/${workspaceId}/oauth/sign-in`, { serverName: SERVER }),
    201,
  );
  const redirectUrl = await followSignIn(started.authorizationUrl as string, REDIRECT_URI);
  await steps.expectOk(steps.rest('member', 'POST', '/v1/oauth/sign-in/complete', { redirectUrl }));
  await steps.discoverAndSubmit(SERVER, member.id);

  const config = parseConfig(gatewayConfigSchema, {
    LOG_LEVEL: 'silent',
    REDIS_URL: testRedisUrl(),
    REDIS_KEY_PREFIX: namespaces.REDIS_KEY_PREFIX,
    API_URL: await api.getUrl(),
    GATEWAY_TOKEN: tokens.gateway,
    CHILD_PATH: '/usr/bin:/bin',
  });
  if (!config.ok) throw new Error(config.message);
  gateway = await createGatewayApp(config.config, {
    logger: createLogger({ name: 'upstream-401-gateway-test', level: 'silent' }),
  });
  await gateway.listen({ host: '127.0.0.1', port: 0 });
  gatewayUrl = await gateway.getUrl();
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await gateway?.close();
  await api?.close();
  await upstream?.close();
  await provider?.stop();
  await db?.close();
  await testDb?.drop();
}, TEST_DATABASE_TIMEOUT_MS);

beforeEach(async () => {
  upstream.refused.clear();
  upstream.refuseAll.value = false;
  upstream.seen.length = 0;
  await provider.configure({ resetStats: true });
});

describe("the gateway's upstream refusing a lease's access token", () => {
  it('connects with a fresh lease whose token the API refreshed (one grant) and the call succeeds', async () => {
    const before = await currentToken();
    upstream.refused.add(bearerDigestOf(before));
    const since = new Date();
    const client = await connect();
    try {
      await expect(client.callTool({ name: TOOL, arguments: { message: 'hi' } })).resolves.toMatchObject({
        content: [{ type: 'text', text: 'hi' }],
      });

      expect((await provider.stats()).refreshGrants).toBe(1);
      const after = await currentToken();
      expect(after).not.toBe(before);
      // The refused token once, then only the refreshed one; never a request without a bearer.
      expect(upstream.seen[0]).toEqual({ digest: bearerDigestOf(before), status: 401 });
      expect(
        upstream.seen.slice(1).every((s) => s.digest === bearerDigestOf(after) && s.status === 200),
      ).toBe(true);
      // A second call on the warm connection asks nothing more of the API or the issuer.
      await expect(client.callTool({ name: TOOL, arguments: { message: 'again' } })).resolves.toMatchObject({
        content: [{ type: 'text', text: 'again' }],
      });
      expect((await provider.stats()).refreshGrants).toBe(1);
      // The gateway's lease and its fresh lease are held (not released) while the connection serves; the
      // test's own lease of `currentToken` is released.
      const rows = await leasesSince(since);
      expect(rows.filter((row) => !row.released && !row.revoked)).toHaveLength(2);
    } finally {
      await client.close();
    }
  });

  it('a token refused mid-connection is retried once with a fresh lease; refused again: auth, then a new lease', async () => {
    const client = await connect();
    try {
      // The previous case's connection spent its one retry: let it go (refused for good), then a warm
      // connection that has not retried yet.
      upstream.refuseAll.value = true;
      await refusalOf(client.callTool({ name: TOOL, arguments: { message: 'drop' } }));
      upstream.refuseAll.value = false;
      await client.callTool({ name: TOOL, arguments: { message: 'warm' } });
      await provider.configure({ resetStats: true });
      const inUse = upstream.seen.at(-1)?.digest;
      if (inUse === null || inUse === undefined) throw new Error('no bearer seen');
      upstream.seen.length = 0;
      upstream.refused.add(inUse);

      // Refused once on the open connection: one fresh lease (one grant), the same call answered.
      await expect(client.callTool({ name: TOOL, arguments: { message: 'mid' } })).resolves.toMatchObject({
        content: [{ type: 'text', text: 'mid' }],
      });
      expect((await provider.stats()).refreshGrants).toBe(1);
      expect(upstream.seen[0]).toEqual({ digest: inUse, status: 401 });
      const refreshed = upstream.seen.at(-1);
      expect(refreshed?.status).toBe(200);
      expect(refreshed?.digest).not.toBe(inUse);

      // Refused again on the same connection: it has no retry left. Typed, content-free, one attempt.
      upstream.refuseAll.value = true;
      upstream.seen.length = 0;
      const refusal = await refusalOf(client.callTool({ name: TOOL, arguments: { message: 'no' } }));
      expect(refusal.data).toEqual({ reason: 'upstream_unavailable', server: SERVER, detail: 'auth' });
      expect(JSON.stringify(refusal)).not.toContain('upstream secret words');
      expect(upstream.seen).toEqual([{ digest: refreshed?.digest, status: 401 }]);

      // That connection was let go: the next call leases again and is served once the upstream takes tokens.
      upstream.refuseAll.value = false;
      upstream.refused.clear();
      await expect(client.callTool({ name: TOOL, arguments: { message: 'back' } })).resolves.toMatchObject({
        content: [{ type: 'text', text: 'back' }],
      });
    } finally {
      await client.close();
    }
  });

  it('refused again after the fresh lease: auth, two attempts, one grant, both leases released', async () => {
    // A new principal connection: close the warm one by making its next call fail for good.
    const client = await connect();
    try {
      upstream.refuseAll.value = true;
      await refusalOf(client.callTool({ name: TOOL, arguments: { message: 'drop' } }));
      await provider.configure({ resetStats: true });
      upstream.seen.length = 0;
      const first = await currentToken();
      const since = new Date();

      const refusal = await refusalOf(client.callTool({ name: TOOL, arguments: { message: 'no' } }));
      expect(refusal.data).toEqual({ reason: 'upstream_unavailable', server: SERVER, detail: 'auth' });

      expect((await provider.stats()).refreshGrants).toBe(1);
      const second = await currentToken();
      expect(second).not.toBe(first);
      // Exactly two attempts: the lease's token, then the fresh lease's; both refused; never unauthenticated.
      expect(upstream.seen).toEqual([
        { digest: bearerDigestOf(first), status: 401 },
        { digest: bearerDigestOf(second), status: 401 },
      ]);
      // The gateway's two leases and the test's own: all released, none left live.
      const rows = await leasesSince(since);
      expect(rows).toHaveLength(3);
      expect(rows.every((row) => row.released && !row.revoked)).toBe(true);
    } finally {
      await client.close();
    }
  });
});
