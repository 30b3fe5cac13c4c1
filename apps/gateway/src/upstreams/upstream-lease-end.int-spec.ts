import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client as Pg } from 'pg';
import type { Scope } from '@gatehouse/contracts';
import { createDatabase, insertGatewayToken, type Database } from '@gatehouse/db';
import { createFixedResolver } from '@gatehouse/egress';
import { catalogDocumentOf, superviseAdmitted } from '@gatehouse/mcp-client';
import { createLogger, parseConfig } from '@gatehouse/platform';
import {
  createTestDatabase,
  createTestTenant,
  createTestWorkspace,
  followSignIn,
  OidcProviderProcess,
  testRedisUrl,
  TEST_DATABASE_TIMEOUT_MS,
  type TestDatabase,
  type TestTenant,
  type TestUser,
} from '@gatehouse/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { z } from 'zod';
// The gateway's peer is the real API (sign-in, leases with access tokens, the refresh once): a test reaching for
// its real peer is the one place an app imports another.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { mintApiToken } from '../../../api/src/auth/mint-api-token.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { mintTokenSecret } from '../../../api/src/auth/api-token.format.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createMember, mintTestToken } from '../../../api/src/commands/testing/surfaces-harness.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { apiConfigSchema } from '../../../api/src/config/api.config.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createApiApp } from '../../../api/src/create-api-app.js';
import { gatewayConfigSchema } from '../config/gateway.config.js';
import { createGatewayApp } from '../create-gateway-app.js';

// A gateway lease that carries an access token ends with the token (decision 0082): renewing re-decides it but never
// lengthens it. Through the real API and gateway, oidc-provider issuing 10-second access tokens: the gateway's
// upstream renews once, sees the lease was not lengthened, and stops renewing (before, it renewed ever faster until
// the end, an audited renewal each time); new calls lease again, and the old connection closes at its lease's end.

jest.setTimeout(120_000);

const PUBLIC_URL = 'http://127.0.0.1:4000';
const REDIRECT_URI = `${PUBLIC_URL}/v1/oauth/callback`;
const POOL = 'local';
const QUEUE_PREFIX = `gh-test-${randomBytes(6).toString('hex')}`;
const SERVER = 'signed';
const TOOL = `mcp__${SERVER}__echo`;

let testDb: TestDatabase;
let db: Database;
let api: NestFastifyApplication;
let gateway: NestFastifyApplication;
let gatewayUrl: string;
let provider: OidcProviderProcess;
let upstream: Upstream;
let acme: TestTenant;
let workspaceId: string;
let member: TestUser;
const tokens = { admin: '', approver: '', member: '', worker: '', gateway: '' };

interface Upstream {
  readonly server: Server;
  readonly origin: string;
  /** Digests of the tokens it refuses (the test's stand-in for an issuer that revoked them). */
  readonly refused: Set<string>;
  /** Refuses every token (the credential's refreshed token too). */
  readonly refuseAll: { value: boolean };
  /** Every request's bearer digest (null: none) and the answer's status. */
  readonly seen: { digest: string | null; status: number }[];
}

const digestOf = (token: string) => createHash('sha256').update(token, 'utf8').digest('base64url');

async function startUpstream(issuer: string): Promise<Upstream> {
  const refused = new Set<string>();
  const refuseAll = { value: false };
  const seen: Upstream['seen'] = [];
  let origin = '';
  const server = createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/.well-known/oauth-protected-resource/mcp') {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ resource: `${origin}/mcp`, authorization_servers: [issuer] }));
        return;
      }
      const body = await bodyOf(req);
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? null;
      const digest = bearer === null ? null : digestOf(bearer);
      if (digest === null || refuseAll.value || refused.has(digest)) {
        seen.push({ digest, status: 401 });
        res
          .writeHead(401, {
            'content-type': 'application/json',
            'www-authenticate': `Bearer error="invalid_token", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
          })
          .end('{"error":"invalid_token","error_description":"upstream secret words"}');
        return;
      }
      seen.push({ digest, status: 200 });
      const mcp = new McpServer({ name: 'signed', version: '1.0.0' });
      mcp.registerTool('echo', { inputSchema: { message: z.string() } }, ({ message }) => ({
        content: [{ type: 'text', text: message }],
      }));
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      await mcp.connect(transport);
      res.on('close', () => void transport.close());
      await transport.handleRequest(req, res, body);
    })();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, origin, refused, refuseAll, seen };
}

async function bodyOf(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

async function rest(who: keyof typeof tokens, method: 'POST' | 'PUT', url: string, payload?: unknown) {
  const response = await api.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${tokens[who]}`,
      ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
  });
  return {
    status: response.statusCode,
    body: JSON.parse(response.body || 'null') as Record<string, unknown>,
  };
}

async function expectOk(answer: Promise<{ status: number; body: Record<string, unknown> }>, status = 200) {
  const { status: got, body } = await answer;
  if (got !== status) throw new Error(`expected ${status}, got ${got}: ${JSON.stringify(body)}`);
  return body;
}

interface LeaseBody {
  id: string;
  transport: { transport: { oauth?: { accessToken: string } } };
  source: { tier: 'managed'; origin: string };
}

/** A lease for the member, as the worker asks it. */
async function memberLease(): Promise<LeaseBody> {
  return (await expectOk(
    rest('worker', 'POST', '/v1/leases', { workspaceId, serverName: SERVER, principalUserId: member.id }),
    201,
  )) as unknown as LeaseBody;
}

/** Discovers the server for the member through libs/mcp-client and posts its catalog, as the worker does. */
async function discoverAndSubmit(): Promise<void> {
  const lease = await memberLease();
  const supervisor = superviseAdmitted(lease.transport.transport, {
    serverId: SERVER,
    connect: {
      serverName: SERVER,
      clientInfo: { name: 'lease-end-gateway-test', version: '0.0.0' },
      defaultStartupTimeoutMs: 10_000,
      searchPath: '/usr/bin:/bin',
      stillAdmitted: () => true,
    },
    backoff: { maxAttempts: 1, baseMs: 0, maxMs: 0 },
  });
  try {
    expect(await supervisor.start()).toBe('ready');
    if (supervisor.catalog === undefined) throw new Error('no catalog');
    const document = catalogDocumentOf(supervisor.catalog, {
      source: lease.source,
      fetchedAt: new Date().toISOString(),
    });
    await expectOk(rest('worker', 'POST', `/v1/leases/${lease.id}/snapshot`, { document }), 201);
  } finally {
    await supervisor.close();
    await rest('worker', 'POST', `/v1/leases/${lease.id}/release`);
  }
}

async function gatewayToken(): Promise<string> {
  const minted = mintTokenSecret('gateway');
  await insertGatewayToken({
    ownerUrl: testDb.ownerUrl,
    name: 'gateway local',
    scopes: [
      'tokens:introspect',
      'leases:write',
      'catalog:read',
      'revocations:read',
      'catalog:refresh',
    ] satisfies Scope[],
    pool: POOL,
    secretHash: minted.secretHash,
    prefix: minted.prefix,
    expiresAt: null,
  });
  return minted.secret;
}

async function connect(): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`/mcp/w/${workspaceId}`, gatewayUrl), {
    requestInit: { headers: { authorization: `Bearer ${tokens.member}` } },
  });
  const client = new Client({ name: 'lease-end-gateway-test', version: '0.0.0' });
  await client.connect(transport);
  return client;
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 3 });
  provider = await OidcProviderProcess.start({ clients: [], accessTokenTtlSeconds: 10 });
  upstream = await startUpstream(provider.issuer);
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
  tokens.gateway = await gatewayToken();
  const parsed = parseConfig(apiConfigSchema, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: testDb.appUrl,
    REDIS_URL: testRedisUrl(),
    QUEUE_PREFIX,
    PUBLIC_URL,
    GATEHOUSE_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    GATEHOUSE_ACTIVE_KEY_ID: 'k1',
    WORKER_POOLS: JSON.stringify({ [POOL]: { tenants: [acme.slug], allowInsecureLoopback: true } }),
  });
  if (!parsed.ok) throw new Error(parsed.message);
  api = await createApiApp(parsed.config, {
    logger: createLogger({ name: 'lease-end-gateway-test-api', level: 'silent' }),
    egressResolver: createFixedResolver({}),
  });
  await api.listen({ host: '127.0.0.1', port: 0 });
  await expectOk(
    rest('admin', 'PUT', '/v1/definition-sources', {
      tier: 'managed',
      name: 'oauth',
      document: {
        mcpServers: {
          [SERVER]: { type: 'http', url: `${upstream.origin}/mcp`, oauth: { scopes: ['mcp:tools'] } },
        },
      },
    }),
  );
  const opened = await expectOk(
    rest('admin', 'POST', `/v1/workspaces/${workspaceId}/approval-requests`, {
      serverName: SERVER,
      view: 'workspace',
    }),
    201,
  );
  const identity = opened.identity as { key: string; definitionFingerprint: string };
  await expectOk(
    rest('approver', 'POST', `/v1/approval-requests/${opened.id as string}/decision`, {
      decision: 'approve',
      seenFingerprint: identity.definitionFingerprint,
      seenIdentityKey: identity.key,
    }),
    201,
  );
  const started = await expectOk(
    rest('member', 'POST', `/v1/workspaces/${workspaceId}/oauth/sign-in`, { serverName: SERVER }),
    201,
  );
  const redirectUrl = await followSignIn(started.authorizationUrl as string, REDIRECT_URI);
  await expectOk(rest('member', 'POST', '/v1/oauth/sign-in/complete', { redirectUrl }));
  await discoverAndSubmit();

  const config = parseConfig(gatewayConfigSchema, {
    LOG_LEVEL: 'silent',
    REDIS_URL: testRedisUrl(),
    API_URL: await api.getUrl(),
    GATEWAY_TOKEN: tokens.gateway,
    CHILD_PATH: '/usr/bin:/bin',
  });
  if (!config.ok) throw new Error(config.message);
  gateway = await createGatewayApp(config.config, {
    logger: createLogger({ name: 'lease-end-gateway-test', level: 'silent' }),
  });
  await gateway.listen({ host: '127.0.0.1', port: 0 });
  gatewayUrl = await gateway.getUrl();
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await gateway?.close();
  await api?.close();
  if (upstream) {
    upstream.server.closeAllConnections();
    await new Promise<void>((done) => upstream.server.close(() => done()));
  }
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

interface LeaseEnd {
  readonly id: string;
  readonly released: boolean;
  readonly revoked: boolean;
  readonly renewals: number;
}

/** The server's leases since `since` with their audited renewals, as the database superuser reads them. */
async function leaseEndsSince(since: Date): Promise<LeaseEnd[]> {
  const owner = new Pg({ connectionString: testDb.adminUrl });
  await owner.connect();
  try {
    const result = await owner.query<LeaseEnd>(
      `SELECT l.id, l.released_at IS NOT NULL AS released, l.revoked_at IS NOT NULL AS revoked,
              (SELECT count(*)::int FROM audit_events a
                WHERE a.action = 'leases.renewed' AND a.target_type = 'lease' AND a.target_id = l.id::text) AS renewals
         FROM leases l
        WHERE l.workspace_id = $1 AND l.server_name = $2 AND l.issued_at >= $3 ORDER BY l.issued_at`,
      [workspaceId, SERVER, since],
    );
    return result.rows;
  } finally {
    await owner.end();
  }
}

/** Resolves once the first of the server's leases since `since` is released (its upstream closed). */
async function firstReleased(since: Date): Promise<LeaseEnd> {
  for (;;) {
    const [first] = await leaseEndsSince(since);
    if (first?.released === true) return first;
    await new Promise((done) => setTimeout(done, 250));
  }
}

describe('a gateway lease that carries an access token', () => {
  it('is renewed once, not lengthened, then left to end: new calls lease again, the old connection closes at its end', async () => {
    const since = new Date();
    const client = await connect();
    try {
      await expect(client.callTool({ name: TOOL, arguments: { message: 'first' } })).resolves.toMatchObject({
        content: [{ type: 'text', text: 'first' }],
      });
      const first = await firstReleased(since);
      // One audited renewal (the one that was not lengthened), not a renewal every few milliseconds to its end.
      expect(first).toMatchObject({ renewals: 1, revoked: false });
      // The next call is served on a new lease.
      await expect(client.callTool({ name: TOOL, arguments: { message: 'next' } })).resolves.toMatchObject({
        content: [{ type: 'text', text: 'next' }],
      });
      const leases = await leaseEndsSince(since);
      expect(leases.length).toBeGreaterThanOrEqual(2);
      expect(leases.filter((lease) => lease.id !== first.id && !lease.released)).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});
