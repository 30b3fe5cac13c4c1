import {
  startStreamableHttpUpstream,
  TEST_DATABASE_TIMEOUT_MS,
  type StreamableHttpUpstream,
} from '@gatehouse/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  PromptListChangedNotificationSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import {
  captureLogs,
  connectSdkClient,
  EVERYTHING,
  startGatewayStack,
  type GatewayStack,
} from '../acceptance/gateway-stack.harness';

// Prompts and resources through the workspace endpoint, and the per-server passthrough (decisions
// 0104, 0105), end to end: the real API (Postgres, Redis), the gateway app, and two upstreams:
// @modelcontextprotocol/server-everything over stdio (it has prompts, resources and resource templates) and an
// in-process SDK server over Streamable HTTP whose prompts, resources and template we control exactly. Catalogs are
// discovered through libs/mcp-client and posted with catalog.submit, as the worker does. A real SDK client talks
// to /mcp/w/:id and /mcp/w/:id/s/:server. The stack (API, tenants, tokens, host policy, this file's own
// QUEUE_PREFIX and REDIS_KEY_PREFIX) is the acceptance harness's.

jest.setTimeout(120_000);

let stack: GatewayStack;
let upstream: StreamableHttpUpstream;
const approvals: Record<string, string> = {};

/** Set by the `grow` tool: the in-process server lists one more prompt from then on. */
let grown = false;

function upstreamServer(): Server {
  const server = new Server(
    { name: 'inproc', version: '1.0.0' },
    { capabilities: { tools: {}, prompts: { listChanged: true }, resources: {} } },
  );
  const text = { type: 'object' as const, properties: { text: { type: 'string' } }, required: ['text'] };
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      { name: 'echo', description: 'Echoes text', inputSchema: text },
      { name: 'secret_op', description: 'Outside allowTools', inputSchema: { type: 'object' as const } },
      { name: 'grow', description: 'Adds a prompt and says so', inputSchema: { type: 'object' as const } },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    switch (request.params.name) {
      case 'echo':
        return { content: [{ type: 'text', text: `inproc: ${String(request.params.arguments?.text)}` }] };
      case 'secret_op':
        return { content: [{ type: 'text', text: 'secret ran' }] };
      case 'grow':
        grown = true;
        await server.sendPromptListChanged();
        return { content: [{ type: 'text', text: 'grown' }] };
      default:
        throw new McpError(ErrorCode.InvalidParams, 'unknown tool');
    }
  });
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: [
      {
        name: 'greet',
        description: 'Greets someone',
        arguments: [
          { name: 'who', required: true },
          { name: 'mood', required: false },
        ],
      },
      ...(grown ? [{ name: 'grown', description: 'Listed after grow' }] : []),
    ],
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    if (request.params.name !== 'greet') throw new McpError(ErrorCode.InvalidParams, 'unknown prompt');
    const { who, mood } = request.params.arguments ?? {};
    return {
      messages: [
        {
          role: 'user' as const,
          content: { type: 'text' as const, text: `Hello ${String(who)}${mood ? ` (${mood})` : ''}` },
        },
      ],
    };
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [{ uri: 'mem://notes/1', name: 'note-1', mimeType: 'text/plain' }],
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [{ uriTemplate: 'mem://notes/{id}', name: 'note' }],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    // Anything under mem:// answers, listed or not: the gateway is what refuses what its catalog does not serve.
    const { uri } = request.params;
    if (!uri.startsWith('mem://')) throw new McpError(-32002, 'not found');
    return { contents: [{ uri, mimeType: 'text/plain', text: `note at ${uri}` }] };
  });
  return server;
}

beforeAll(async () => {
  stack = await startGatewayStack({ name: 'gateway-surface', stdioCommands: [[EVERYTHING, 'stdio']] });
  upstream = await startStreamableHttpUpstream(upstreamServer);
  await stack.defineServers('admin', 'managed', {
    everything: { type: 'stdio', command: EVERYTHING, args: ['stdio'] },
    inproc: { type: 'http', url: upstream.url, allowTools: ['echo', 'grow'] },
    // Defined, never approved: its passthrough is as unknown as a server nobody defined.
    unapproved: { type: 'http', url: upstream.url },
    // Approved, never discovered: in the catalog's servers as pending, in no surface.
    pending: { type: 'http', url: upstream.url },
  });
  approvals.everything = await stack.approve('everything');
  approvals.inproc = await stack.approve('inproc');
  approvals.pending = await stack.approve('pending');
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

/** A real SDK client on the workspace endpoint, or on a server's passthrough (`server`). */
function connect(
  url: string,
  token: string,
  options: { workspace?: string; server?: string } = {},
): Promise<Client> {
  return connectSdkClient(new URL(pathOf(options), url), token);
}

function pathOf(options: { workspace?: string; server?: string }): string {
  const workspace = options.workspace ?? stack.workspaceId;
  return options.server === undefined ? `/mcp/w/${workspace}` : `/mcp/w/${workspace}/s/${options.server}`;
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } },
});

/** An initialize POST as a client sends it, with these headers, to this path. */
function post(url: string, path: string, headers: Record<string, string>, body = INITIALIZE) {
  return fetch(new URL(path, url), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body,
  });
}

describe('prompts and resources through the workspace endpoint', () => {
  let gateway: Awaited<ReturnType<typeof startGateway>>;

  beforeAll(async () => {
    gateway = await startGateway();
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it('advertises tools, prompts and resources with listChanged, no subscribe, and completions', async () => {
    const client = await connect(gateway.url, stack.tokens.agent);
    try {
      expect(client.getServerCapabilities()).toEqual({
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { listChanged: true },
        completions: {},
      });
    } finally {
      await client.close();
    }
  });

  it('lists every served server’s prompts under minted names and gets them from their upstream', async () => {
    const client = await connect(gateway.url, stack.tokens.alice);
    try {
      const listed = await client.listPrompts();
      const names = listed.prompts.map((p) => p.name);
      expect(names).toEqual(
        expect.arrayContaining([
          'mcp__inproc__greet',
          'mcp__everything__simple-prompt',
          'mcp__everything__args-prompt',
        ]),
      );
      // Incomplete, and says why: one approved server is not discovered yet.
      expect(listed._meta?.['dev.gatehouse/catalog']).toMatchObject({
        complete: false,
        stale: false,
        servers: expect.arrayContaining([
          { name: 'pending', state: 'pending_discovery', complete: false, stale: false },
          { name: 'inproc', state: 'discovered', complete: true, stale: false },
        ]),
      });
      expect(listed.prompts.find((p) => p.name === 'mcp__inproc__greet')?.arguments).toEqual([
        { name: 'who', required: true },
        { name: 'mood', required: false },
      ]);
      const greeted = await client.getPrompt({ name: 'mcp__inproc__greet', arguments: { who: 'Ada' } });
      expect(greeted.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Hello Ada' } }]);
      const simple = await client.getPrompt({ name: 'mcp__everything__simple-prompt' });
      expect(simple.messages.length).toBeGreaterThan(0);
      const args = await client.getPrompt({
        name: 'mcp__everything__args-prompt',
        arguments: { city: 'Lisbon' },
      });
      expect(JSON.stringify(args.messages)).toContain('Lisbon');
    } finally {
      await client.close();
    }
  });

  it('refuses a prompt it does not serve and arguments the prompt does not declare or misses', async () => {
    const client = await connect(gateway.url, stack.tokens.agent);
    try {
      for (const name of ['greet', 'mcp__inproc__nope', 'mcp__unapproved__greet']) {
        await expect(client.getPrompt({ name, arguments: { who: 'x' } })).rejects.toMatchObject({
          code: ErrorCode.InvalidParams,
          data: { reason: 'unknown_prompt' },
        });
      }
      await expect(client.getPrompt({ name: 'mcp__inproc__greet', arguments: {} })).rejects.toMatchObject({
        code: ErrorCode.InvalidParams,
        data: { reason: 'invalid_arguments', argument: 'who', problem: 'missing' },
      });
      await expect(
        client.getPrompt({ name: 'mcp__inproc__greet', arguments: { who: 'x', extra: 'y' } }),
      ).rejects.toMatchObject({
        code: ErrorCode.InvalidParams,
        data: { reason: 'invalid_arguments', argument: 'extra', problem: 'not_declared' },
      });
    } finally {
      await client.close();
    }
  });

  it('lists resources and templates under gatehouse://<server>/ and reads them back, listed or templated', async () => {
    const client = await connect(gateway.url, stack.tokens.agent);
    try {
      const resources = await client.listResources();
      const uris = resources.resources.map((r) => r.uri);
      expect(uris).toContain('gatehouse://inproc/mem://notes/1');
      expect(
        uris.some((uri) => uri.startsWith('gatehouse://everything/demo://resource/static/document/')),
      ).toBe(true);
      expect(uris.every((uri) => uri.startsWith('gatehouse://'))).toBe(true);
      expect(resources.resources.find((r) => r.uri === 'gatehouse://inproc/mem://notes/1')).toMatchObject({
        name: 'mcp__inproc__note-1',
        mimeType: 'text/plain',
      });
      const templates = await client.listResourceTemplates();
      const served = templates.resourceTemplates.map((t) => t.uriTemplate);
      expect(served).toContain('gatehouse://inproc/mem://notes/{id}');
      expect(served).toContain('gatehouse://everything/demo://resource/dynamic/text/{resourceId}');

      // The contents come back under the URI the caller read, not the upstream's own.
      const listed = await client.readResource({ uri: 'gatehouse://inproc/mem://notes/1' });
      expect(listed.contents).toEqual([
        { uri: 'gatehouse://inproc/mem://notes/1', mimeType: 'text/plain', text: 'note at mem://notes/1' },
      ]);
      const templated = await client.readResource({ uri: 'gatehouse://inproc/mem://notes/42' });
      expect(templated.contents).toEqual([
        { uri: 'gatehouse://inproc/mem://notes/42', mimeType: 'text/plain', text: 'note at mem://notes/42' },
      ]);
      const dynamic = await client.readResource({
        uri: 'gatehouse://everything/demo://resource/dynamic/text/3',
      });
      expect(dynamic.contents[0]).toMatchObject({
        uri: 'gatehouse://everything/demo://resource/dynamic/text/3',
      });
      const staticUri = uris.find((uri) => uri.startsWith('gatehouse://everything/demo://resource/static/'));
      const document = await client.readResource({ uri: staticUri ?? '' });
      expect(document.contents[0]?.uri).toBe(staticUri);
    } finally {
      await client.close();
    }
  });

  it('refuses a URI it does not serve: un-namespaced, another server’s under this one, unlisted, unmatched', async () => {
    const client = await connect(gateway.url, stack.tokens.agent);
    try {
      for (const uri of [
        // The upstream would answer every one of these (it serves anything under mem://): the gateway refuses.
        'mem://notes/1',
        'mem://secret',
        'gatehouse://inproc/mem://secret',
        'gatehouse://inproc/mem://notes/1/extra',
        'gatehouse://inproc/demo://resource/dynamic/text/3',
        'gatehouse://unapproved/mem://notes/1',
        'gatehouse://nobody/mem://notes/1',
        'gatehouse://inproc/',
      ]) {
        await expect(client.readResource({ uri })).rejects.toMatchObject({
          code: -32602,
          data: { reason: 'unknown_resource' },
        });
      }
    } finally {
      await client.close();
    }
  });

  it('refuses another workspace’s resources and prompts: nothing is served there', async () => {
    // The member sees the tenant's other workspace (nothing approved there); the agent is bound to its own.
    const client = await connect(gateway.url, stack.tokens.alice, { workspace: stack.otherWorkspaceId });
    try {
      expect((await client.listResources()).resources).toEqual([]);
      expect((await client.listPrompts()).prompts).toEqual([]);
      await expect(client.readResource({ uri: 'gatehouse://inproc/mem://notes/1' })).rejects.toMatchObject({
        code: -32602,
      });
      await expect(
        client.getPrompt({ name: 'mcp__inproc__greet', arguments: { who: 'x' } }),
      ).rejects.toMatchObject({ code: ErrorCode.InvalidParams, data: { reason: 'unknown_prompt' } });
    } finally {
      await client.close();
    }
    const refused = await post(gateway.url, pathOf({ workspace: stack.otherWorkspaceId, server: 'inproc' }), {
      authorization: `Bearer ${stack.tokens.agent}`,
    });
    expect(refused.status).toBe(404);
  });

  it('refuses a cursor that is not one of its own', async () => {
    const client = await connect(gateway.url, stack.tokens.agent);
    try {
      for (const list of [
        () => client.listTools({ cursor: 'nope' }),
        () => client.listPrompts({ cursor: 'p1.0' }),
        () => client.listResources({ cursor: '200' }),
        () => client.listResourceTemplates({ cursor: 'p1.-1' }),
      ]) {
        await expect(list()).rejects.toMatchObject({
          code: ErrorCode.InvalidParams,
          data: { reason: 'invalid_cursor' },
        });
      }
      // One page here (the lists are short): no next cursor.
      expect((await client.listResources()).nextCursor).toBeUndefined();
    } finally {
      await client.close();
    }
  });
});

describe('the per-server passthrough endpoint', () => {
  let gateway: Awaited<ReturnType<typeof startGateway>>;

  beforeAll(async () => {
    gateway = await startGateway();
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it('serves one server under its own names: tools, prompts, resources, templates', async () => {
    const client = await connect(gateway.url, stack.tokens.agent, { server: 'inproc' });
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toEqual(['echo', 'grow']);
      expect(tools._meta?.['dev.gatehouse/catalog']).toEqual({
        complete: true,
        stale: false,
        servers: [{ name: 'inproc', state: 'discovered', complete: true, stale: false }],
      });
      const echoed = await client.callTool({ name: 'echo', arguments: { text: 'direct' } });
      expect(echoed.content).toEqual([{ type: 'text', text: 'inproc: direct' }]);
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['greet']);
      const greeted = await client.getPrompt({ name: 'greet', arguments: { who: 'Grace', mood: 'glad' } });
      expect(greeted.messages).toEqual([
        { role: 'user', content: { type: 'text', text: 'Hello Grace (glad)' } },
      ]);
      expect((await client.listResources()).resources).toEqual([
        { uri: 'mem://notes/1', name: 'note-1', mimeType: 'text/plain' },
      ]);
      expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
        { uriTemplate: 'mem://notes/{id}', name: 'note' },
      ]);
      const read = await client.readResource({ uri: 'mem://notes/7' });
      expect(read.contents).toEqual([
        { uri: 'mem://notes/7', mimeType: 'text/plain', text: 'note at mem://notes/7' },
      ]);
    } finally {
      await client.close();
    }
  });

  it('applies the same policy: allowTools, names of the workspace endpoint and other servers refused', async () => {
    const client = await connect(gateway.url, stack.tokens.alice, { server: 'inproc' });
    try {
      for (const name of ['secret_op', 'mcp__inproc__echo', 'mcp__everything__echo']) {
        await expect(client.callTool({ name, arguments: {} })).rejects.toMatchObject({
          code: ErrorCode.InvalidParams,
          data: { reason: 'unknown_tool' },
        });
      }
      await expect(
        client.getPrompt({ name: 'mcp__inproc__greet', arguments: { who: 'x' } }),
      ).rejects.toMatchObject({
        data: { reason: 'unknown_prompt' },
      });
      for (const uri of [
        'mem://secret',
        'gatehouse://inproc/mem://notes/1',
        'demo://resource/dynamic/text/1',
      ]) {
        await expect(client.readResource({ uri })).rejects.toMatchObject({ code: -32602 });
      }
    } finally {
      await client.close();
    }
  });

  it('serves a stdio server through its passthrough too', async () => {
    const client = await connect(gateway.url, stack.tokens.agent, { server: 'everything' });
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('echo');
      expect(names.some((n) => n.startsWith('mcp__'))).toBe(false);
      const echoed = await client.callTool({ name: 'echo', arguments: { message: 'through' } });
      expect(JSON.stringify(echoed.content)).toContain('through');
      const read = await client.readResource({ uri: 'demo://resource/dynamic/text/5' });
      expect(read.contents[0]).toMatchObject({ uri: 'demo://resource/dynamic/text/5' });
    } finally {
      await client.close();
    }
  });

  it('answers 404 for a server it does not serve exactly as for another workspace', async () => {
    const auth = { authorization: `Bearer ${stack.tokens.agent}` };
    const reference = await post(gateway.url, pathOf({ workspace: stack.otherWorkspaceId }), auth);
    expect(reference.status).toBe(404);
    const referenceBody = await reference.text();
    for (const server of [
      'nope',
      'unapproved',
      'pending',
      'a__b',
      '_x',
      'x'.repeat(65),
      'ghu_abcdefghijklmnop1234',
    ]) {
      const refused = await post(gateway.url, pathOf({ server }), auth);
      expect(refused.status).toBe(404);
      expect(refused.headers.get('content-type')).toBe(reference.headers.get('content-type'));
      expect(await refused.text()).toBe(referenceBody);
    }
    // Another workspace's passthrough of a server this one serves: the same 404.
    const elsewhere = await post(
      gateway.url,
      pathOf({ workspace: stack.otherWorkspaceId, server: 'inproc' }),
      auth,
    );
    expect(await elsewhere.text()).toBe(referenceBody);
    const globex = await post(gateway.url, pathOf({ workspace: stack.globexWorkspaceId, server: 'inproc' }), {
      authorization: `Bearer ${stack.tokens.alice}`,
    });
    expect(globex.status).toBe(404);
  });

  it('authenticates and checks Host and Origin like the workspace endpoint', async () => {
    const path = pathOf({ server: 'inproc' });
    const none = await post(gateway.url, path, {});
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer realm="gatehouse"/);
    const probe = (headers: Record<string, string>) =>
      gateway.app.inject({
        method: 'POST',
        url: path,
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${stack.tokens.agent}`,
          ...headers,
        },
        payload: INITIALIZE,
      });
    expect((await probe({ host: 'evil.example:4200' })).statusCode).toBe(403);
    expect((await probe({ host: 'localhost', origin: 'http://evil.example' })).statusCode).toBe(403);
  });

  it('binds a session to its surface: a passthrough session is not found on the workspace endpoint', async () => {
    const opened = await post(gateway.url, pathOf({ server: 'inproc' }), {
      authorization: `Bearer ${stack.tokens.agent}`,
    });
    expect(opened.status).toBe(200);
    const sessionId = opened.headers.get('mcp-session-id') ?? '';
    await opened.body?.cancel();
    expect(sessionId).not.toBe('');
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
    const headers = {
      authorization: `Bearer ${stack.tokens.agent}`,
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
    };
    for (const path of [pathOf({}), pathOf({ server: 'everything' })]) {
      const elsewhere = await post(gateway.url, path, headers, list);
      expect(elsewhere.status).toBe(404);
      expect(await elsewhere.json()).toMatchObject({ error: { code: -32001 } });
    }
    const own = await post(gateway.url, pathOf({ server: 'inproc' }), headers, list);
    expect(own.status).toBe(200);
    await own.body?.cancel();
  });

  it('answers without a session too (a stateless request on any replica)', async () => {
    const listed = await post(
      gateway.url,
      pathOf({ server: 'inproc' }),
      { authorization: `Bearer ${stack.tokens.agent}` },
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'prompts/list', params: {} }),
    );
    expect(listed.status).toBe(200);
    expect(await listed.text()).toContain('"greet"');
  });
});

describe('the passthrough’s rate limits', () => {
  it('counts against the same per-token limit as the workspace endpoint: 429 with Retry-After', async () => {
    const limited = await startGateway({ RATE_LIMIT_PER_TOKEN: '2' });
    try {
      const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
      const auth = { authorization: `Bearer ${stack.tokens.agent}` };
      expect((await post(limited.url, pathOf({}), auth, list)).status).toBe(200);
      expect((await post(limited.url, pathOf({ server: 'inproc' }), auth, list)).status).toBe(200);
      const refused = await post(limited.url, pathOf({ server: 'everything' }), auth, list);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await refused.json()).toMatchObject({ code: 'rate_limited' });
    } finally {
      await limited.close();
    }
  });
});

describe('list_changed and revocation', () => {
  let gateway: Awaited<ReturnType<typeof startGateway>>;

  beforeAll(async () => {
    gateway = await startGateway();
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it('relays an upstream’s prompts list_changed to the workspace’s and the server’s passthrough sessions', async () => {
    const workspace = await connect(gateway.url, stack.tokens.agent);
    const passthrough = await connect(gateway.url, stack.tokens.agent, { server: 'inproc' });
    const other = await connect(gateway.url, stack.tokens.agent, { server: 'everything' });
    const told: string[] = [];
    other.setNotificationHandler(PromptListChangedNotificationSchema, async () => {
      told.push('everything');
    });
    try {
      const heard = (client: Client) =>
        new Promise<void>((done) => {
          client.setNotificationHandler(PromptListChangedNotificationSchema, async () => done());
        });
      const both = Promise.all([heard(workspace), heard(passthrough)]);
      await passthrough.callTool({ name: 'grow', arguments: {} });
      await both;
      // Another server's passthrough is not told (its lists did not change); a list request on it still answers.
      await other.listPrompts();
      expect(told).toEqual([]);
    } finally {
      await Promise.all([workspace.close(), passthrough.close(), other.close()]);
    }
  });

  it('refuses a revoked server: its prompts and resources at once, its passthrough with the same 404', async () => {
    const workspace = await connect(gateway.url, stack.tokens.agent);
    const passthrough = await connect(gateway.url, stack.tokens.agent, { server: 'inproc' });
    try {
      await workspace.getPrompt({ name: 'mcp__inproc__greet', arguments: { who: 'before' } });
      await passthrough.readResource({ uri: 'mem://notes/1' });
      await stack.expectStatus('admin', 'POST', `/v1/approvals/${approvals.inproc}/revoke`, 200, {
        reason: 'surface test',
      });
      await gateway.revocations?.catchUp();
      expect((await workspace.listPrompts()).prompts.map((p) => p.name)).not.toContain('mcp__inproc__greet');
      expect((await workspace.listResources()).resources.map((r) => r.uri)).not.toContain(
        'gatehouse://inproc/mem://notes/1',
      );
      await expect(
        workspace.getPrompt({ name: 'mcp__inproc__greet', arguments: { who: 'after' } }),
      ).rejects.toMatchObject({ data: { reason: 'unknown_prompt' } });
      await expect(workspace.readResource({ uri: 'gatehouse://inproc/mem://notes/1' })).rejects.toMatchObject(
        {
          code: -32602,
        },
      );
      // The open passthrough session's next request is refused before the transport: the server is not served.
      await expect(passthrough.listTools()).rejects.toThrow(/404/);
      const fresh = await post(gateway.url, pathOf({ server: 'inproc' }), {
        authorization: `Bearer ${stack.tokens.agent}`,
      });
      expect(fresh.status).toBe(404);
      expect(await fresh.json()).toMatchObject({ code: 'not_found', detail: 'No such workspace.' });
      // The other server is still served on both surfaces.
      expect((await workspace.listPrompts()).prompts.map((p) => p.name)).toContain(
        'mcp__everything__simple-prompt',
      );
    } finally {
      await Promise.all([workspace.close(), passthrough.close().catch(() => undefined)]);
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
