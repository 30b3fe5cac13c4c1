import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { Writable } from 'node:stream';
import { dirname, join, resolve } from 'node:path';
import { catalogRefreshQueueOf, type Scope } from '@gatehouse/contracts';
import { createDatabase, insertGatewayToken, type Database } from '@gatehouse/db';
import { catalogDocumentOf, superviseAdmitted } from '@gatehouse/mcp-client';
import { createLogger, parseConfig } from '@gatehouse/platform';
import {
  createTestDatabase,
  createTestTenant,
  createTestRedisPrefix,
  createTestWorkspace,
  testRedisUrl,
  TEST_DATABASE_TIMEOUT_MS,
  type TestDatabase,
  type TestTenant,
} from '@gatehouse/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Queue, QueueEvents } from 'bullmq';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  ToolListChangedNotificationSchema,
  isInitializeRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
// The gateway's peer is the real API (introspection, catalog, leases, revocations): a test reaching for its real
// peer is the one place an app imports another.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { mintTokenSecret } from '../../../api/src/auth/api-token.format.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { mintApiToken } from '../../../api/src/auth/mint-api-token.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createMember, mintTestToken } from '../../../api/src/commands/testing/surfaces-harness.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { apiConfigSchema } from '../../../api/src/config/api.config.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createApiApp } from '../../../api/src/create-api-app.js';
import { gatewayConfigSchema } from '../config/gateway.config.js';
import { createGatewayApp } from '../create-gateway-app.js';
import { GatewayRuntime } from './gateway.runtime.js';

// The workspace gateway end to end (issue 16; decisions 0079-0081): the real API on a loopback port (Postgres,
// Redis), the gateway app on another, and two upstreams behind it: @modelcontextprotocol/server-everything over
// stdio (on a pool whose ceiling allows exactly it) and an in-process SDK server over Streamable HTTP. Their
// catalogs are discovered through libs/mcp-client and posted with catalog.submit, as the worker does: every tool
// the server lists. The in-process server's definition declares allowTools, which the API applies to the catalog
// it leases, so one of its tools is never mounted. A real SDK client then talks to /mcp/w/:id.

jest.setTimeout(120_000);

const ROOT_DIR = resolve(__dirname, '../../../..');
const EVERYTHING = join(ROOT_DIR, 'node_modules/.bin/mcp-server-everything');
const CHILD_PATH = `${dirname(process.execPath)}:/usr/bin:/bin`;
const POOL = 'local';
/** This file's own BullMQ namespace: the catalog-refresh jobs the API enqueues are this file's alone. */
const QUEUE_PREFIX = `gh-test-${randomBytes(6).toString('hex')}`;
/**
 * This file's own revocation namespace (the API's REDIS_KEY_PREFIX, which the gateway subscribes under): on the
 * shared default, another spec's API running at the same time publishes its ledger's events to this file's
 * gateways, whose cursor then runs past their own ledger's events (a revocation missed under parallel load).
 */
const REDIS_KEY_PREFIX = createTestRedisPrefix();
const silent = createLogger({ name: 'gateway-endpoint-test', level: 'silent' });

let testDb: TestDatabase;
let db: Database;
let api: NestFastifyApplication;
let apiUrl: string;
let acme: TestTenant;
let globex: TestTenant;
let workspaceId: string;
let otherWorkspaceId: string;
let globexWorkspaceId: string;
let root: string;
let upstream: InProcessUpstream;
const approvals: Record<string, string> = {};
const tokens = { admin: '', approver: '', worker: '', gateway: '', agent: '', user: '', globexUser: '' };

/** An in-process SDK server over Streamable HTTP, a session (and a Server) per client. */
interface InProcessUpstream {
  readonly url: string;
  readonly sessions: () => number;
  readonly close: () => Promise<void>;
}

/** Set by the `grow` tool: the in-process server lists one more tool from then on. */
let grown = false;

function upstreamServer(): Server {
  const server = new Server(
    { name: 'inproc', version: '1.0.0' },
    { capabilities: { tools: {}, logging: {} } },
  );
  const text = { type: 'object' as const, properties: { text: { type: 'string' } }, required: ['text'] };
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      { name: 'echo', description: 'Echoes text', inputSchema: text },
      { name: 'fail', description: 'Always a tool error', inputSchema: { type: 'object' as const } },
      {
        name: 'chatty',
        description: 'Sends a log message while it runs',
        inputSchema: { type: 'object' as const },
      },
      { name: 'secret_op', description: 'Outside allowTools', inputSchema: { type: 'object' as const } },
      { name: 'grow', description: 'Adds a tool and says so', inputSchema: { type: 'object' as const } },
      ...(grown
        ? [{ name: 'grown', description: 'Listed after grow', inputSchema: { type: 'object' as const } }]
        : []),
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    switch (request.params.name) {
      case 'echo':
        return { content: [{ type: 'text', text: `inproc: ${String(request.params.arguments?.text)}` }] };
      case 'fail':
        return { content: [{ type: 'text', text: 'it failed' }], isError: true };
      case 'chatty':
        // Not progress, not list_changed: the gateway drops and counts it.
        await extra.sendNotification({
          method: 'notifications/message',
          params: { level: 'info', data: 'upstream chatter' },
        });
        return { content: [{ type: 'text', text: 'done' }] };
      case 'secret_op':
        return { content: [{ type: 'text', text: 'secret ran' }] };
      case 'grow':
        grown = true;
        await server.sendToolListChanged();
        return { content: [{ type: 'text', text: 'grown' }] };
      default:
        throw new McpError(ErrorCode.InvalidParams, 'unknown tool');
    }
  });
  return server;
}

async function startUpstream(): Promise<InProcessUpstream> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const http: HttpServer = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const body: unknown =
          chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
        const id = req.headers['mcp-session-id'];
        let transport = typeof id === 'string' ? transports.get(id) : undefined;
        if (transport === undefined && isInitializeRequest(body)) {
          const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
            sessionIdGenerator: () => randomUUID(),
            onsessioninitialized: (sessionId) => {
              transports.set(sessionId, created);
            },
            onsessionclosed: (sessionId) => void transports.delete(sessionId),
          });
          created.onclose = () => {
            if (created.sessionId !== undefined) transports.delete(created.sessionId);
          };
          await upstreamServer().connect(created);
          transport = created;
        }
        if (transport === undefined) {
          res.writeHead(404).end();
          return;
        }
        await transport.handleRequest(req, res, body);
      })();
    });
  });
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    sessions: () => transports.size,
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((done) => http.close(() => done()));
    },
  };
}

async function rest(
  who: keyof typeof tokens,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload?: unknown,
) {
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

async function expectOk(answer: ReturnType<typeof rest>, status: number) {
  const { status: got, body } = await answer;
  if (got !== status) throw new Error(`expected ${status}, got ${got}: ${JSON.stringify(body)}`);
  return body;
}

async function approve(serverName: string): Promise<string> {
  const opened = await expectOk(
    rest('admin', 'POST', `/v1/workspaces/${workspaceId}/approval-requests`, {
      serverName,
      view: 'workspace',
    }),
    201,
  );
  const identity = opened.identity as { key: string; definitionFingerprint: string };
  const decided = await expectOk(
    rest('approver', 'POST', `/v1/approval-requests/${opened.id as string}/decision`, {
      decision: 'approve',
      seenFingerprint: identity.definitionFingerprint,
      seenIdentityKey: identity.key,
    }),
    201,
  );
  return decided.id as string;
}

/** Discovers a leased server through libs/mcp-client and posts its catalog for the lease, as the worker does. */
async function discoverAndSubmit(serverName: string): Promise<void> {
  const lease = (await expectOk(rest('worker', 'POST', '/v1/leases', { workspaceId, serverName }), 201)) as {
    id: string;
    transport: { transport: unknown };
    source: { tier: 'managed'; origin: string };
  };
  const supervisor = superviseAdmitted(lease.transport.transport, {
    serverId: serverName,
    connect: {
      serverName,
      clientInfo: { name: 'gateway-endpoint-test', version: '0.0.0' },
      defaultStartupTimeoutMs: 60_000,
      searchPath: CHILD_PATH,
      closeGraceMs: 500,
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

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gh-16-gateway-')));
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 2 });
  acme = await createTestTenant(db, { slug: `acme-${randomUUID().slice(0, 8)}` });
  globex = await createTestTenant(db, { slug: `globex-${randomUUID().slice(0, 8)}` });
  const admin = await createMember(db, acme, 'admin');
  const approver = await createMember(db, acme, 'approver');
  const member = await createMember(db, acme, 'member');
  const globexOwner = await createMember(db, globex, 'owner');
  workspaceId = (await createTestWorkspace(db, acme.id)).id;
  otherWorkspaceId = (await createTestWorkspace(db, acme.id)).id;
  globexWorkspaceId = (await createTestWorkspace(db, globex.id)).id;
  tokens.admin = (await mintTestToken(db, acme, admin, { kind: 'user' })).secret;
  tokens.approver = (await mintTestToken(db, acme, approver, { kind: 'user' })).secret;
  tokens.user = (await mintTestToken(db, acme, member, { kind: 'user' })).secret;
  tokens.globexUser = (await mintTestToken(db, globex, globexOwner, { kind: 'user' })).secret;
  tokens.agent = (
    await mintTestToken(db, acme, admin, {
      kind: 'agent',
      scopes: ['gateway:use'],
      workspaceIds: [workspaceId],
    })
  ).secret;
  tokens.worker = await db.withTenant(acme.id, async (tx) => {
    const minted = await mintApiToken(tx, {
      tenantId: acme.id,
      createdById: admin.id,
      name: 'worker local',
      grant: {
        kind: 'worker',
        userId: null,
        scopes: ['leases:write', 'snapshots:write', 'revocations:read', 'catalog:read'],
        workspaceIds: [],
        pool: POOL,
      },
      expiresAt: null,
    });
    return minted.secret;
  });
  tokens.gateway = await gatewayToken();
  upstream = await startUpstream();

  const parsed = parseConfig(apiConfigSchema, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: testDb.appUrl,
    REDIS_URL: testRedisUrl(),
    REDIS_KEY_PREFIX,
    QUEUE_PREFIX,
    GATEHOUSE_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    GATEHOUSE_ACTIVE_KEY_ID: 'k1',
    WORKER_POOLS: JSON.stringify({
      [POOL]: {
        tenants: [acme.slug, globex.slug],
        stdio: true,
        commandCeiling: [[EVERYTHING]],
        allowedRoots: [root],
        allowInsecureLoopback: true,
      },
    }),
  });
  if (!parsed.ok) throw new Error(parsed.message);
  api = await createApiApp(parsed.config, { logger: silent });
  await api.listen({ host: '127.0.0.1', port: 0 });
  apiUrl = await api.getUrl();
  await expectOk(
    rest('admin', 'PUT', '/v1/host-policy', {
      stdioCommands: [[EVERYTHING, 'stdio']],
      headerHelpers: [],
      privateCidrs: [],
      traceContextOrigins: [],
      fourEyes: false,
    }),
    200,
  );
  await expectOk(
    rest('admin', 'PUT', '/v1/definition-sources', {
      tier: 'managed',
      name: 'gateway',
      document: {
        mcpServers: {
          everything: { type: 'stdio', command: EVERYTHING, args: ['stdio'] },
          inproc: { type: 'http', url: upstream.url, allowTools: ['echo', 'fail', 'chatty', 'grow'] },
        },
      },
    }),
    200,
  );
  approvals.everything = await approve('everything');
  approvals.inproc = await approve('inproc');
  await discoverAndSubmit('everything');
  await discoverAndSubmit('inproc');
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await api?.close();
  await upstream?.close();
  await db?.close();
  await testDb?.drop();
  await rm(root, { recursive: true, force: true });
}, TEST_DATABASE_TIMEOUT_MS);

/** Everything the gateways of this file logged, at debug (no redaction: the canary proves nothing is logged). */
let logged = '';
const logSink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logged += chunk.toString('utf8');
    done();
  },
});

async function startGateway(env: Record<string, string> = {}) {
  const parsed = parseConfig(gatewayConfigSchema, {
    LOG_LEVEL: 'silent',
    REDIS_URL: testRedisUrl(),
    REDIS_KEY_PREFIX,
    API_URL: apiUrl,
    GATEWAY_TOKEN: tokens.gateway,
    CHILD_PATH,
    CHILD_CLOSE_GRACE_MS: '500',
    ...env,
  });
  if (!parsed.ok) throw new Error(parsed.message);
  const app = await createGatewayApp(parsed.config, {
    logger: createLogger({ name: 'gateway', level: 'debug', destination: logSink }),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url: await app.getUrl(), runtime: app.get(GatewayRuntime) };
}

async function connect(url: string, token: string, workspace = workspaceId): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`/mcp/w/${workspace}`, url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'gateway-endpoint-test', version: '0.0.0' });
  await client.connect(transport);
  return client;
}

describe('the workspace gateway through a real SDK client', () => {
  let gateway: Awaited<ReturnType<typeof startGateway>>;

  beforeAll(async () => {
    gateway = await startGateway();
  });

  afterAll(async () => {
    await gateway?.app.close();
  });

  it('lists the namespaced tools of both upstreams, and only those allowTools admits', async () => {
    const client = await connect(gateway.url, tokens.agent);
    try {
      const listed = await client.listTools();
      const names = listed.tools.map((t) => t.name);
      expect(names).toEqual(
        expect.arrayContaining(['mcp__everything__echo', 'mcp__inproc__echo', 'mcp__inproc__fail']),
      );
      expect(names).not.toContain('mcp__inproc__secret_op');
      // The catalog lease itself carries only what allowTools admits, whatever the snapshot listed.
      const catalog = await rest('worker', 'GET', `/v1/workspaces/${workspaceId}/catalog`);
      expect(catalog.status).toBe(200);
      const { servers } = catalog.body.document as {
        servers: { identity: { server: string }; tools: { remoteName: string }[] }[];
      };
      const inproc = servers.find((server) => server.identity.server === 'inproc');
      expect(inproc?.tools.map((tool) => tool.remoteName)).toEqual(['echo', 'fail', 'chatty', 'grow']);
      expect(listed._meta?.['dev.gatehouse/catalog']).toMatchObject({ complete: true, stale: false });
    } finally {
      await client.close();
    }
  });

  it('calls a stdio tool and an HTTP tool; a tool error is a result with isError', async () => {
    const client = await connect(gateway.url, tokens.user);
    try {
      const echoed = await client.callTool({ name: 'mcp__everything__echo', arguments: { message: 'hi' } });
      expect(JSON.stringify(echoed.content)).toContain('hi');
      const inproc = await client.callTool({ name: 'mcp__inproc__echo', arguments: { text: 'there' } });
      expect(inproc.content).toEqual([{ type: 'text', text: 'inproc: there' }]);
      const failed = await client.callTool({ name: 'mcp__inproc__fail', arguments: {} });
      expect(failed).toMatchObject({ isError: true, content: [{ type: 'text', text: 'it failed' }] });
    } finally {
      await client.close();
    }
  });

  it('refuses a tool outside allowTools when called directly, though the upstream has it', async () => {
    const client = await connect(gateway.url, tokens.agent);
    try {
      await expect(client.callTool({ name: 'mcp__inproc__secret_op', arguments: {} })).rejects.toMatchObject({
        code: ErrorCode.InvalidParams,
      });
      await expect(
        client.callTool({ name: 'mcp__inproc__echo', arguments: { text: 7 } }),
      ).rejects.toMatchObject({
        code: ErrorCode.InvalidParams,
      });
    } finally {
      await client.close();
    }
  });

  it('relays the progress of the call in flight, under the caller’s own progress token', async () => {
    const client = await connect(gateway.url, tokens.agent);
    try {
      const progress: { progress: number; total?: number }[] = [];
      const done = await client.callTool(
        { name: 'mcp__everything__trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } },
        undefined,
        { onprogress: ({ progress: step, total }) => progress.push({ progress: step, total }) },
      );
      expect(JSON.stringify(done.content)).toContain('Long running operation completed');
      expect(progress).toEqual([
        { progress: 1, total: 3 },
        { progress: 2, total: 3 },
        { progress: 3, total: 3 },
      ]);
    } finally {
      await client.close();
    }
  });

  it('relays an upstream’s list_changed to the workspace’s sessions and asks the API for a catalog refresh', async () => {
    const queue = new Queue(catalogRefreshQueueOf(POOL), {
      connection: { url: testRedisUrl() },
      prefix: QUEUE_PREFIX,
    });
    const events = new QueueEvents(catalogRefreshQueueOf(POOL), {
      connection: { url: testRedisUrl() },
      prefix: QUEUE_PREFIX,
    });
    const client = await connect(gateway.url, tokens.agent);
    try {
      // The approval's own discovery job still waits (no worker here): gone, so the report is a new job.
      await queue.drain();
      await events.waitUntilReady();
      const enqueued = new Promise<string>((done) => {
        events.on('waiting', ({ jobId }) => done(jobId));
      });
      const changed = new Promise<void>((done) => {
        client.setNotificationHandler(ToolListChangedNotificationSchema, async () => done());
      });
      await client.callTool({ name: 'mcp__inproc__grow', arguments: {} });
      await changed;
      const job = await queue.getJob(await enqueued);
      expect(job?.data).toMatchObject({
        serverName: 'inproc',
        reason: 'list_changed',
        principalUserId: null,
      });
    } finally {
      await client.close();
      await events.close();
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });

  it('drops and counts an upstream notification that is not the call’s progress or list_changed', async () => {
    const client = await connect(gateway.url, tokens.agent);
    const relayed: string[] = [];
    client.fallbackNotificationHandler = async (notification) => {
      relayed.push(notification.method);
    };
    try {
      const done = await client.callTool({ name: 'mcp__inproc__chatty', arguments: {} });
      expect(done.content).toEqual([{ type: 'text', text: 'done' }]);
      expect(relayed).toEqual([]);
      const metrics = await gateway.app.inject({ method: 'GET', url: '/metrics' });
      expect(metrics.body).toMatch(
        /gateway_upstream_notifications_dropped_total\{method="notifications\/message",app="gateway"\} [1-9]/,
      );
    } finally {
      await client.close();
    }
  });

  it('answers 401 with WWW-Authenticate without a valid token, and 404 for another workspace', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } },
    };
    const post = (workspace: string, headers: Record<string, string>) =>
      fetch(new URL(`/mcp/w/${workspace}`, gateway.url), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify(initialize),
      });
    const none = await post(workspaceId, {});
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer realm="gatehouse"/);
    expect(await none.json()).toMatchObject({ code: 'unauthenticated' });
    const bogus = await post(workspaceId, { authorization: `Bearer ghu_${'x'.repeat(43)}` });
    expect(bogus.status).toBe(401);
    // The agent is bound to its workspace; a person is not a member of another tenant's.
    for (const [token, workspace] of [
      [tokens.agent, otherWorkspaceId],
      [tokens.user, globexWorkspaceId],
      [tokens.globexUser, workspaceId],
      [tokens.user, randomUUID()],
    ] as const) {
      const refused = await post(workspace, { authorization: `Bearer ${token}` });
      expect(refused.status).toBe(404);
      expect(await refused.json()).toMatchObject({ code: 'not_found' });
    }
    await expect(connect(gateway.url, tokens.agent, otherWorkspaceId)).rejects.toThrow();
  });

  it('refuses a foreign Host or Origin (DNS rebinding) with 403', async () => {
    const probe = (headers: Record<string, string>) =>
      gateway.app.inject({
        method: 'POST',
        url: `/mcp/w/${workspaceId}`,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.agent}`, ...headers },
        payload: '{}',
      });
    const host = await probe({ host: 'evil.example:4200' });
    expect(host.statusCode).toBe(403);
    expect(host.json()).toMatchObject({ code: 'forbidden' });
    const origin = await probe({ host: 'localhost', origin: 'http://evil.example' });
    expect(origin.statusCode).toBe(403);
  });

  it('refuses a revoked server on the next call and closes its upstream connection', async () => {
    const client = await connect(gateway.url, tokens.agent);
    try {
      await client.callTool({ name: 'mcp__inproc__echo', arguments: { text: 'before' } });
      const heldBefore = gateway.runtime.held.size;
      expect(heldBefore).toBeGreaterThan(0);
      await expectOk(
        rest('admin', 'POST', `/v1/approvals/${approvals.inproc}/revoke`, { reason: 'gateway test' }),
        200,
      );
      // The ledger has the event once the revoke answered: read it now rather than wait for the relay.
      await gateway.runtime.revocations?.catchUp();
      expect(gateway.runtime.held.size).toBeLessThan(heldBefore);
      const listed = await client.listTools();
      expect(listed.tools.map((t) => t.name)).not.toContain('mcp__inproc__echo');
      expect(listed.tools.map((t) => t.name)).toContain('mcp__everything__echo');
      await expect(
        client.callTool({ name: 'mcp__inproc__echo', arguments: { text: 'after' } }),
      ).rejects.toMatchObject({
        code: ErrorCode.InvalidParams,
      });
    } finally {
      await client.close();
    }
  });
});

describe('secrets', () => {
  it('no caller token and not the gateway token in anything the gateways logged', () => {
    expect(logged).toContain('gateway upstream connected');
    for (const secret of [tokens.agent, tokens.user, tokens.globexUser, tokens.gateway]) {
      expect(logged).not.toContain(secret);
      expect(logged).not.toContain(secret.slice(4));
    }
  });
});

describe('rate limits', () => {
  it('answers 429 with Retry-After past the per-token limit', async () => {
    const limited = await startGateway({ RATE_LIMIT_PER_TOKEN: '2' });
    try {
      const list = () =>
        limited.app.inject({
          method: 'POST',
          url: `/mcp/w/${workspaceId}`,
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            authorization: `Bearer ${tokens.agent}`,
          },
          payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
        });
      expect((await list()).statusCode).toBe(200);
      expect((await list()).statusCode).toBe(200);
      const refused = await list();
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(refused.json()).toMatchObject({ code: 'rate_limited' });
    } finally {
      await limited.app.close();
    }
  });
});
