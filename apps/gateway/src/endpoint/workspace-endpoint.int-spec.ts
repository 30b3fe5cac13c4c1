import { randomUUID } from 'node:crypto';
import { catalogRefreshQueueOf } from '@gatehouse/contracts';
import {
  startStreamableHttpUpstream,
  testRedisUrl,
  TEST_DATABASE_TIMEOUT_MS,
  type StreamableHttpUpstream,
} from '@gatehouse/testing';
import { Queue, QueueEvents } from 'bullmq';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import {
  captureLogs,
  connectSdkClient,
  EVERYTHING,
  startGatewayStack,
  type GatewayStack,
} from '../acceptance/gateway-stack.harness';

// The workspace gateway end to end (decisions 0079-0081): the real API on a loopback port (Postgres,
// Redis), the gateway app on another, and two upstreams behind it: @modelcontextprotocol/server-everything
// over stdio (on a pool whose ceiling allows exactly it) and an in-process SDK server over Streamable HTTP.
// Their catalogs are discovered through libs/mcp-client and posted with catalog.submit, as the worker does:
// every tool the server lists. The in-process server's definition declares allowTools, which the API applies
// to the catalog it leases, so one of its tools is never mounted. A real SDK client then talks to /mcp/w/:id.
// The stack (API, tenants, tokens, host policy, this file's own QUEUE_PREFIX and REDIS_KEY_PREFIX) is the
// acceptance harness's.

jest.setTimeout(120_000);

let stack: GatewayStack;
let upstream: StreamableHttpUpstream;
const approvals: Record<string, string> = {};

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

beforeAll(async () => {
  stack = await startGatewayStack({ name: 'gateway-endpoint', stdioCommands: [[EVERYTHING, 'stdio']] });
  upstream = await startStreamableHttpUpstream(upstreamServer);
  await stack.defineServers('admin', 'managed', {
    everything: { type: 'stdio', command: EVERYTHING, args: ['stdio'] },
    inproc: { type: 'http', url: upstream.url, allowTools: ['echo', 'fail', 'chatty', 'grow'] },
  });
  approvals.everything = await stack.approve('everything');
  approvals.inproc = await stack.approve('inproc');
  await stack.discoverAndSubmit('everything');
  await stack.discoverAndSubmit('inproc');
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await stack?.close();
  await upstream?.close();
}, TEST_DATABASE_TIMEOUT_MS);

/** Everything the gateways of this file logged, at debug (no redaction: the canary proves nothing is logged). */
const logs = captureLogs();

const startGateway = (env: Record<string, string> = {}) => stack.startGateway(env, { logger: logs.logger() });

describe('the workspace gateway through a real SDK client', () => {
  let gateway: Awaited<ReturnType<typeof startGateway>>;

  beforeAll(async () => {
    gateway = await startGateway();
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it('lists the namespaced tools of both upstreams, and only those allowTools admits', async () => {
    const client = await connectSdkClient(gateway.endpoint(), stack.tokens.agent);
    try {
      const listed = await client.listTools();
      const names = listed.tools.map((t) => t.name);
      expect(names).toEqual(
        expect.arrayContaining(['mcp__everything__echo', 'mcp__inproc__echo', 'mcp__inproc__fail']),
      );
      expect(names).not.toContain('mcp__inproc__secret_op');
      // The catalog lease itself carries only what allowTools admits, whatever the snapshot listed.
      const catalog = await stack.rest('worker', 'GET', `/v1/workspaces/${stack.workspaceId}/catalog`);
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
    const client = await connectSdkClient(gateway.endpoint(), stack.tokens.alice);
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
    const client = await connectSdkClient(gateway.endpoint(), stack.tokens.agent);
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
    const client = await connectSdkClient(gateway.endpoint(), stack.tokens.agent);
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
    const queue = new Queue(catalogRefreshQueueOf(stack.pool), {
      connection: { url: testRedisUrl() },
      prefix: stack.queuePrefix,
    });
    const events = new QueueEvents(catalogRefreshQueueOf(stack.pool), {
      connection: { url: testRedisUrl() },
      prefix: stack.queuePrefix,
    });
    const client = await connectSdkClient(gateway.endpoint(), stack.tokens.agent);
    try {
      // The approval's own discovery job still waits (no worker here): gone, so the report is a new job.
      await queue.drain();
      await events.waitUntilReady();
      // server-everything registers more tools once initialized, so its every connection sends list_changed, which
      // the gateway reports too; under load that report lands after the drain. Any other server's is this call's.
      const enqueued = new Promise<string>((done) => {
        events.on('waiting', ({ jobId }) => {
          void queue.getJob(jobId).then((job) => {
            if ((job?.data as { serverName?: unknown } | undefined)?.serverName !== 'everything') done(jobId);
          });
        });
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
    const client = await connectSdkClient(gateway.endpoint(), stack.tokens.agent);
    const relayed: string[] = [];
    client.fallbackNotificationHandler = async (notification) => {
      relayed.push(notification.method);
    };
    try {
      const done = await client.callTool({ name: 'mcp__inproc__chatty', arguments: {} });
      expect(done.content).toEqual([{ type: 'text', text: 'done' }]);
      // A list_changed may reach the session at any time (an earlier test's catalog change, the other upstream):
      // it is relayed by design. Nothing else is.
      expect(relayed.filter((method) => !method.endsWith('/list_changed'))).toEqual([]);
      const metrics = await gateway.app.inject({ method: 'GET', url: '/metrics' });
      expect(metrics.body).toMatch(
        /gateway_upstream_notifications_dropped_total\{method="notifications\/message",reason="not_relayed",app="gateway"\} [1-9]/,
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
    const none = await post(stack.workspaceId, {});
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer realm="gatehouse"/);
    expect(await none.json()).toMatchObject({ code: 'unauthenticated' });
    const bogus = await post(stack.workspaceId, { authorization: `Bearer ghu_${'x'.repeat(43)}` });
    expect(bogus.status).toBe(401);
    // The agent is bound to its workspace; a person is not a member of another tenant's.
    for (const [token, workspace] of [
      [stack.tokens.agent, stack.otherWorkspaceId],
      [stack.tokens.alice, stack.globexWorkspaceId],
      [stack.tokens.globexOwner, stack.workspaceId],
      [stack.tokens.alice, randomUUID()],
    ] as const) {
      const refused = await post(workspace, { authorization: `Bearer ${token}` });
      expect(refused.status).toBe(404);
      expect(await refused.json()).toMatchObject({ code: 'not_found' });
    }
    await expect(
      connectSdkClient(gateway.endpoint(stack.otherWorkspaceId), stack.tokens.agent),
    ).rejects.toThrow();
  });

  it('refuses a foreign Host or Origin (DNS rebinding) with 403', async () => {
    const probe = (headers: Record<string, string>) =>
      gateway.app.inject({
        method: 'POST',
        url: `/mcp/w/${stack.workspaceId}`,
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${stack.tokens.agent}`,
          ...headers,
        },
        payload: '{}',
      });
    const host = await probe({ host: 'evil.example:4200' });
    expect(host.statusCode).toBe(403);
    expect(host.json()).toMatchObject({ code: 'forbidden' });
    const origin = await probe({ host: 'localhost', origin: 'http://evil.example' });
    expect(origin.statusCode).toBe(403);
  });

  it('refuses a revoked server on the next call and closes its upstream connection', async () => {
    const client = await connectSdkClient(gateway.endpoint(), stack.tokens.agent);
    try {
      await client.callTool({ name: 'mcp__inproc__echo', arguments: { text: 'before' } });
      const heldBefore = gateway.held.size;
      expect(heldBefore).toBeGreaterThan(0);
      await stack.expectStatus('admin', 'POST', `/v1/approvals/${approvals.inproc}/revoke`, 200, {
        reason: 'gateway test',
      });
      // The ledger has the event once the revoke answered: read it now rather than wait for the relay.
      await gateway.revocations?.catchUp();
      expect(gateway.held.size).toBeLessThan(heldBefore);
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
    expect(logs.text()).toContain('gateway upstream connected');
    for (const secret of [
      stack.tokens.agent,
      stack.tokens.alice,
      stack.tokens.globexOwner,
      stack.tokens.gateway,
    ]) {
      expect(logs.text()).not.toContain(secret);
      expect(logs.text()).not.toContain(secret.slice(4));
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
          url: `/mcp/w/${stack.workspaceId}`,
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            authorization: `Bearer ${stack.tokens.agent}`,
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
      await limited.close();
    }
  });
});
