import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Scope } from '@gatehouse/contracts';
import { createDatabase, insertGatewayToken, type Database } from '@gatehouse/db';
import { catalogDocumentOf, superviseAdmitted } from '@gatehouse/mcp-client';
import { createLogger, parseConfig } from '@gatehouse/platform';
import {
  createTestDatabase,
  createTestTenant,
  createTestWorkspace,
  testRedisUrl,
  TEST_DATABASE_TIMEOUT_MS,
  type TestDatabase,
  type TestTenant,
} from '@gatehouse/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ElicitRequestSchema,
  ElicitResultSchema,
  ListToolsRequestSchema,
  McpError,
  isInitializeRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
// The gateway's peer is the real API (introspection, catalog, leases): a test reaching for its real peer is the one
// place an app imports another.
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

// What of a caller's call reaches its upstream, and only its upstream (issue 16; decisions 0106, 0107), through the
// real API and gateway and real SDK clients: two in-process SDK servers over Streamable HTTP, `traced` on an
// origin the tenant's HostPolicy lists in traceContextOrigins and whose definition opts in to elicitation, and
// `plain` on another origin, neither listed nor opted in. Each records every request it is sent. Gateway sessions
// are SDK clients sending their own traceparent on every request they make.

jest.setTimeout(120_000);

const POOL = 'local';
const ROOT_DIR = resolve(__dirname, '../../../..');
const EVERYTHING = join(ROOT_DIR, 'node_modules/.bin/mcp-server-everything');
const CHILD_PATH = `${dirname(process.execPath)}:/usr/bin:/bin`;
const QUEUE_PREFIX = `gh-test-${randomBytes(6).toString('hex')}`;
const silent = createLogger({ name: 'gateway-call-context-test', level: 'silent' });
const TRACE_A = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
const TRACE_B = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00';

let testDb: TestDatabase;
let db: Database;
let api: NestFastifyApplication;
let gateway: NestFastifyApplication;
let gatewayUrl: string;
let acme: TestTenant;
let workspaceId: string;
let traced: Upstream;
let plain: Upstream;
let root: string;
const tokens = { admin: '', approver: '', worker: '', gateway: '', agent: '', user: '' };
let memberId: string;

/** One request an upstream was sent: its HTTP and JSON-RPC method, the call it carries or cancels, the trace headers. */
interface Seen {
  readonly http: string;
  readonly rpc: string | null;
  readonly text: string | null;
  readonly cancels: unknown;
  readonly traceparent: string | undefined;
  readonly tracestate: string | undefined;
  /** The principal header `plain` declares. */
  readonly principal: string | undefined;
}

interface Upstream {
  readonly url: string;
  readonly origin: string;
  readonly seen: Seen[];
  /** Resolves the next time a request matching `predicate` is recorded. */
  readonly next: (predicate: (seen: Seen) => boolean) => Promise<Seen>;
  /** Resolves when a `slow` call is running; releases every running `slow` call. */
  readonly slowStarted: () => Promise<void>;
  readonly releaseSlow: () => void;
  readonly close: () => Promise<void>;
}

function upstreamServer(name: string, hooks: { started: () => void; gate: Promise<void> }): Server {
  const server = new Server({ name, version: '1.0.0' }, { capabilities: { tools: {} } });
  const text = { type: 'object' as const, properties: { text: { type: 'string' } }, required: ['text'] };
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      { name: 'echo', inputSchema: text },
      { name: 'slow', inputSchema: text },
      { name: 'ask', inputSchema: text },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const said = String(request.params.arguments?.text);
    switch (request.params.name) {
      case 'echo':
        return { content: [{ type: 'text', text: `${name}: ${said}` }] };
      case 'slow':
        hooks.started();
        await Promise.race([
          hooks.gate,
          new Promise((done) => extra.signal.addEventListener('abort', done, { once: true })),
        ]);
        return { content: [{ type: 'text', text: `slow: ${said}` }] };
      default: {
        // `ask`: asks the end user, mid-call, and says what came back (or how it was refused).
        try {
          const answer = await extra.sendRequest(
            {
              method: 'elicitation/create',
              params: {
                message: `Your name, for ${said}?`,
                requestedSchema: {
                  type: 'object',
                  properties: { name: { type: 'string' } },
                  required: ['name'],
                },
              },
            },
            ElicitResultSchema,
          );
          return { content: [{ type: 'text', text: `answered: ${JSON.stringify(answer)}` }] };
        } catch (error) {
          const refusal = error instanceof McpError ? error : null;
          const reason = (refusal?.data as { reason?: string } | undefined)?.reason ?? '';
          return { content: [{ type: 'text', text: `refused: ${refusal?.code ?? 'unknown'} ${reason}` }] };
        }
      }
    }
  });
  return server;
}

async function startUpstream(name: string): Promise<Upstream> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const seen: Seen[] = [];
  const waiting: { predicate: (seen: Seen) => boolean; done: (seen: Seen) => void }[] = [];
  let started: (() => void)[] = [];
  let release: () => void = () => undefined;
  let gate = new Promise<void>((done) => (release = done));
  const record = (req: IncomingMessage, body: unknown) => {
    const message = (body ?? {}) as { method?: string; params?: Record<string, unknown> };
    const args = message.params?.['arguments'] as { text?: unknown } | undefined;
    const entry: Seen = {
      http: req.method ?? '',
      rpc: typeof message.method === 'string' ? message.method : null,
      text: typeof args?.text === 'string' ? args.text : null,
      cancels: message.method === 'notifications/cancelled' ? message.params?.['requestId'] : undefined,
      traceparent: req.headers.traceparent as string | undefined,
      tracestate: req.headers.tracestate as string | undefined,
      principal: req.headers['x-principal'] as string | undefined,
    };
    seen.push(entry);
    for (const wait of [...waiting]) {
      if (!wait.predicate(entry)) continue;
      waiting.splice(waiting.indexOf(wait), 1);
      wait.done(entry);
    }
  };
  const http: HttpServer = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const body: unknown =
          chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
        record(req, body);
        const id = req.headers['mcp-session-id'];
        let transport = typeof id === 'string' ? transports.get(id) : undefined;
        if (transport === undefined && isInitializeRequest(body)) {
          const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
            sessionIdGenerator: () => randomUUID(),
            onsessioninitialized: (sessionId) => void transports.set(sessionId, created),
          });
          await upstreamServer(name, {
            started: () => {
              const now = started;
              started = [];
              for (const done of now) done();
            },
            get gate() {
              return gate;
            },
          }).connect(created);
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
    origin: `http://127.0.0.1:${port}`,
    seen,
    next: (predicate) => new Promise((done) => waiting.push({ predicate, done })),
    slowStarted: () => new Promise((done) => started.push(done)),
    releaseSlow: () => {
      release();
      gate = new Promise<void>((done) => (release = done));
    },
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((done) => http.close(() => done()));
    },
  };
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

async function expectOk(answer: ReturnType<typeof rest>, status: number) {
  const { status: got, body } = await answer;
  if (got !== status) throw new Error(`expected ${status}, got ${got}: ${JSON.stringify(body)}`);
  return body;
}

async function approve(serverName: string): Promise<void> {
  const opened = await expectOk(
    rest('admin', 'POST', `/v1/workspaces/${workspaceId}/approval-requests`, {
      serverName,
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
      clientInfo: { name: 'gateway-call-context-test', version: '0.0.0' },
      defaultStartupTimeoutMs: 10_000,
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
    scopes: ['tokens:introspect', 'leases:write', 'catalog:read', 'revocations:read'] satisfies Scope[],
    pool: POOL,
    secretHash: minted.secretHash,
    prefix: minted.prefix,
    expiresAt: null,
  });
  return minted.secret;
}

interface Session {
  readonly client: Client;
  /** The elicitations this session's client was asked (its handler answers `Ada`). */
  readonly asked: string[];
}

/** A gateway session sending `headers` on every request it makes; `elicits`: it declares elicitation. */
async function session(
  headers: Record<string, string>,
  elicits = false,
  token: string = tokens.agent,
): Promise<Session> {
  const transport = new StreamableHTTPClientTransport(new URL(`/mcp/w/${workspaceId}`, gatewayUrl), {
    requestInit: { headers: { authorization: `Bearer ${token}`, ...headers } },
  });
  const client = new Client(
    { name: 'gateway-call-context-test', version: '0.0.0' },
    { capabilities: elicits ? { elicitation: { form: {} } } : {} },
  );
  const asked: string[] = [];
  if (elicits) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { name: 'Ada' } };
    });
  }
  await client.connect(transport);
  return { client, asked };
}

const textOf = (result: unknown) =>
  ((result as { content?: { type: string; text: string }[] }).content ?? [])[0]?.text;

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gh-16-call-context-')));
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 2 });
  acme = await createTestTenant(db, { slug: `acme-${randomUUID().slice(0, 8)}` });
  const admin = await createMember(db, acme, 'admin');
  const approver = await createMember(db, acme, 'approver');
  const member = await createMember(db, acme, 'member');
  memberId = member.id;
  workspaceId = (await createTestWorkspace(db, acme.id)).id;
  tokens.admin = (await mintTestToken(db, acme, admin, { kind: 'user' })).secret;
  tokens.approver = (await mintTestToken(db, acme, approver, { kind: 'user' })).secret;
  tokens.user = (await mintTestToken(db, acme, member, { kind: 'user' })).secret;
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
  traced = await startUpstream('traced');
  plain = await startUpstream('plain');

  const parsed = parseConfig(apiConfigSchema, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: testDb.appUrl,
    REDIS_URL: testRedisUrl(),
    QUEUE_PREFIX,
    GATEHOUSE_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    GATEHOUSE_ACTIVE_KEY_ID: 'k1',
    WORKER_POOLS: JSON.stringify({
      [POOL]: {
        tenants: [acme.slug],
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
  await expectOk(
    rest('admin', 'PUT', '/v1/host-policy', {
      stdioCommands: [[EVERYTHING, 'stdio']],
      headerHelpers: [],
      privateCidrs: [],
      // The listed origin without its port's default spelled out is the same origin as admitted.
      traceContextOrigins: [traced.origin],
      fourEyes: false,
    }),
    200,
  );
  await expectOk(
    rest('admin', 'PUT', '/v1/definition-sources', {
      tier: 'managed',
      name: 'call-context',
      document: {
        mcpServers: {
          traced: { type: 'http', url: traced.url, elicitation: true },
          plain: { type: 'http', url: plain.url, principalHeader: 'X-Principal' },
          everything: { type: 'stdio', command: EVERYTHING, args: ['stdio'], elicitation: true },
        },
      },
    }),
    200,
  );
  await approve('traced');
  await approve('plain');
  await approve('everything');
  await discoverAndSubmit('traced');
  await discoverAndSubmit('plain');
  // Discovered with elicitation declared (its lease says it opted in): it lists its elicitation tool.
  await discoverAndSubmit('everything');

  const config = parseConfig(gatewayConfigSchema, {
    LOG_LEVEL: 'silent',
    REDIS_URL: testRedisUrl(),
    API_URL: await api.getUrl(),
    GATEWAY_TOKEN: tokens.gateway,
    CHILD_PATH,
    CHILD_CLOSE_GRACE_MS: '500',
  });
  if (!config.ok) throw new Error(config.message);
  gateway = await createGatewayApp(config.config, { logger: silent });
  await gateway.listen({ host: '127.0.0.1', port: 0 });
  gatewayUrl = await gateway.getUrl();
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await gateway?.close();
  await api?.close();
  await traced?.close();
  await plain?.close();
  await db?.close();
  await testDb?.drop();
  if (root) await rm(root, { recursive: true, force: true });
}, TEST_DATABASE_TIMEOUT_MS);

beforeEach(() => {
  traced.seen.length = 0;
  plain.seen.length = 0;
});

describe("a caller's trace context", () => {
  it('goes on its own tools/call POST to a listed origin, and on no other request', async () => {
    const a = await session({ traceparent: TRACE_A, tracestate: 'congo=t61rcWkgMzE,rojo=00f067aa0ba902b7' });
    try {
      await a.client.listTools();
      const result = await a.client.callTool({ name: 'mcp__traced__echo', arguments: { text: 'one' } });
      expect(textOf(result)).toBe('traced: one');

      const calls = traced.seen.filter((seen) => seen.rpc === 'tools/call');
      expect(calls).toEqual([
        expect.objectContaining({
          text: 'one',
          traceparent: TRACE_A,
          tracestate: 'congo=t61rcWkgMzE,rojo=00f067aa0ba902b7',
        }),
      ]);
      // The connection's own requests (initialize, initialized, its GET stream) never carry it.
      const others = traced.seen.filter((seen) => seen.rpc !== 'tools/call');
      expect(others.length).toBeGreaterThan(0);
      expect(others.every((seen) => seen.traceparent === undefined && seen.tracestate === undefined)).toBe(
        true,
      );
    } finally {
      await a.client.close();
    }
  });

  it('never reaches an origin the tenant did not list', async () => {
    const a = await session({ traceparent: TRACE_A });
    try {
      const result = await a.client.callTool({ name: 'mcp__plain__echo', arguments: { text: 'two' } });
      expect(textOf(result)).toBe('plain: two');
      expect(plain.seen.some((seen) => seen.rpc === 'tools/call')).toBe(true);
      expect(plain.seen.every((seen) => seen.traceparent === undefined)).toBe(true);
    } finally {
      await a.client.close();
    }
  });

  it("stays on its own call: two sessions' calls in flight on one upstream connection, and a call without one", async () => {
    const a = await session({ traceparent: TRACE_A });
    const b = await session({ traceparent: TRACE_B });
    const none = await session({});
    try {
      const running = traced.slowStarted();
      const slowA = a.client.callTool({ name: 'mcp__traced__slow', arguments: { text: 'a' } });
      await running;
      const [echoB, echoNone] = await Promise.all([
        b.client.callTool({ name: 'mcp__traced__echo', arguments: { text: 'b' } }),
        none.client.callTool({ name: 'mcp__traced__echo', arguments: { text: 'none' } }),
      ]);
      traced.releaseSlow();
      expect(textOf(await slowA)).toBe('slow: a');
      expect(textOf(echoB)).toBe('traced: b');
      expect(textOf(echoNone)).toBe('traced: none');

      const calls = traced.seen.filter((seen) => seen.rpc === 'tools/call');
      expect(calls.map(({ text, traceparent }) => ({ text, traceparent }))).toEqual(
        expect.arrayContaining([
          { text: 'a', traceparent: TRACE_A },
          { text: 'b', traceparent: TRACE_B },
          { text: 'none', traceparent: undefined },
        ]),
      );
      expect(calls).toHaveLength(3);
    } finally {
      await Promise.all([a.client.close(), b.client.close(), none.client.close()]);
    }
  });

  it('goes on the cancellation of its call too', async () => {
    const a = await session({ traceparent: TRACE_A });
    try {
      const running = traced.slowStarted();
      const cancelled = traced.next((seen) => seen.rpc === 'notifications/cancelled');
      const abort = new AbortController();
      const call = a.client.callTool({ name: 'mcp__traced__slow', arguments: { text: 'c' } }, undefined, {
        signal: abort.signal,
      });
      await running;
      abort.abort();
      await expect(call).rejects.toThrow();
      await expect(cancelled).resolves.toMatchObject({ traceparent: TRACE_A });
    } finally {
      await a.client.close();
    }
  });

  it.each([
    ['uppercase hex', '00-0AF7651916CD43DD8448EB211C80319C-B7AD6B7169203331-01'],
    ['an all-zero trace id', '00-00000000000000000000000000000000-b7ad6b7169203331-01'],
    ['an all-zero parent id', '00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01'],
    ['version ff', 'ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01'],
    ['a trailing field on version 00', `${TRACE_A}-extra`],
    ['a short parent id', '00-0af7651916cd43dd8448eb211c80319c-b7ad6b71692033-01'],
  ])('is dropped when the traceparent is malformed (%s), with its tracestate', async (_case, traceparent) => {
    const a = await session({ traceparent, tracestate: 'congo=t61rcWkgMzE' });
    try {
      await a.client.callTool({ name: 'mcp__traced__echo', arguments: { text: 'bad' } });
      const call = traced.seen.find((seen) => seen.rpc === 'tools/call');
      expect(call).toMatchObject({ text: 'bad', traceparent: undefined, tracestate: undefined });
    } finally {
      await a.client.close();
    }
  });

  it('keeps a valid traceparent and drops a malformed tracestate', async () => {
    const a = await session({ traceparent: TRACE_A, tracestate: 'Not A Key=value' });
    try {
      await a.client.callTool({ name: 'mcp__traced__echo', arguments: { text: 'state' } });
      const call = traced.seen.find((seen) => seen.rpc === 'tools/call');
      expect(call).toMatchObject({ traceparent: TRACE_A, tracestate: undefined });
    } finally {
      await a.client.close();
    }
  });
});

describe('the principal header', () => {
  it("carries the calling user to a server that declares it, on every request of that user's connection", async () => {
    const user = await session({}, false, tokens.user);
    try {
      const result = await user.client.callTool({ name: 'mcp__plain__echo', arguments: { text: 'me' } });
      expect(textOf(result)).toBe('plain: me');
      expect(plain.seen.length).toBeGreaterThan(0);
      expect(plain.seen.every((seen) => seen.principal === memberId)).toBe(true);
    } finally {
      await user.client.close();
    }
  });

  it('is not sent for an agent (no principal), nor to a server that does not declare it', async () => {
    const agent = await session({});
    const user = await session({}, false, tokens.user);
    try {
      await agent.client.callTool({ name: 'mcp__plain__echo', arguments: { text: 'agent' } });
      const agentCalls = plain.seen.filter((seen) => seen.text === 'agent');
      expect(agentCalls).toHaveLength(1);
      expect(agentCalls[0]?.principal).toBeUndefined();
      await user.client.callTool({ name: 'mcp__traced__echo', arguments: { text: 'user' } });
      expect(traced.seen.every((seen) => seen.principal === undefined)).toBe(true);
    } finally {
      await Promise.all([agent.client.close(), user.client.close()]);
    }
  });
});

describe('elicitation', () => {
  it("is relayed from an opted-in server to the calling session's client, and its answer back", async () => {
    const asking = await session({}, true);
    try {
      const result = await asking.client.callTool({ name: 'mcp__traced__ask', arguments: { text: 'x' } });
      expect(textOf(result)).toBe('answered: {"action":"accept","content":{"name":"Ada"}}');
      expect(asking.asked).toEqual(['Your name, for x?']);
    } finally {
      await asking.client.close();
    }
  });

  it("is relayed from server-everything over stdio (its trigger-elicitation-request tool) to the session's client", async () => {
    const asking = await session({}, true);
    try {
      const result = await asking.client.callTool({
        name: 'mcp__everything__trigger-elicitation-request',
        arguments: {},
      });
      expect(asking.asked).toHaveLength(1);
      expect(JSON.stringify(result.content)).toContain('- Name: Ada');
    } finally {
      await asking.client.close();
    }
  });

  it('is refused, typed, when the calling session did not declare elicitation', async () => {
    const mute = await session({});
    try {
      const result = await mute.client.callTool({ name: 'mcp__traced__ask', arguments: { text: 'y' } });
      expect(textOf(result)).toBe('refused: -32600 elicitation_unsupported');
    } finally {
      await mute.client.close();
    }
  });

  it('is never declared to a server that did not opt in: its request is refused, the session never asked', async () => {
    const asking = await session({}, true);
    try {
      const result = await asking.client.callTool({ name: 'mcp__plain__ask', arguments: { text: 'z' } });
      // The gateway's client has no handler for it: the protocol's method-not-found.
      expect(textOf(result)).toBe('refused: -32601 ');
      expect(asking.asked).toEqual([]);
    } finally {
      await asking.client.close();
    }
  });

  it("never reaches another session: with two sessions' calls in flight on the connection it is refused", async () => {
    const other = await session({}, true);
    const asking = await session({}, true);
    try {
      const running = traced.slowStarted();
      const slow = other.client.callTool({ name: 'mcp__traced__slow', arguments: { text: 'o' } });
      await running;
      const result = await asking.client.callTool({ name: 'mcp__traced__ask', arguments: { text: 'w' } });
      traced.releaseSlow();
      await slow;
      expect(textOf(result)).toBe('refused: -32600 elicitation_ambiguous');
      expect(other.asked).toEqual([]);
      expect(asking.asked).toEqual([]);
    } finally {
      await Promise.all([other.client.close(), asking.client.close()]);
    }
  });
});
