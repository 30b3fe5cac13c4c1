import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { RESULT_CAP_META_KEY } from '../results/result-cap.policy';
import { discoverCatalog } from './catalog-discovery';
import { connectInMemory, createEdgeServer, makeTools, type Connected } from './test-support/edge-servers';

// Real SDK clients against low-level SDK servers over in-memory transport pairs (no I/O).

describe('discoverCatalog', () => {
  const open: Connected[] = [];
  const connect = async (server: Server) => {
    const connected = await connectInMemory(server);
    open.push(connected);
    return connected.client;
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
  });

  it('drains every page of a paginated tool list', async () => {
    const client = await connect(createEdgeServer({ tools: makeTools(250), pageSize: 100 }));
    const discovery = await discoverCatalog(client);
    expect(discovery.complete).toBe(true);
    expect(discovery.lists.tools).toEqual({ state: 'complete', pages: 3 });
    expect(discovery.tools.map((t) => t.name)).toEqual(makeTools(250).map((t) => t.name));
  });

  it('calls only the list methods of declared capabilities', async () => {
    const server = createEdgeServer({ capabilities: { tools: {} } });
    const seen: string[] = [];
    // Every request the server receives, to prove undeclared lists are never asked for.
    const original = server.fallbackRequestHandler;
    server.fallbackRequestHandler = async (request, extra) => {
      seen.push(request.method);
      if (original) return original(request, extra);
      throw new Error('unhandled');
    };
    const client = await connect(server);
    const discovery = await discoverCatalog(client);
    expect(discovery.complete).toBe(true);
    expect(discovery.lists.prompts).toEqual({ state: 'not_declared' });
    expect(discovery.lists.resources).toEqual({ state: 'not_declared' });
    expect(discovery.lists.resourceTemplates).toEqual({ state: 'not_declared' });
    expect(seen).toEqual([]);
  });

  it('lists prompts, resources and resource templates when declared', async () => {
    const client = await connect(
      createEdgeServer({
        capabilities: { tools: {}, prompts: {}, resources: {} },
        prompts: [{ name: 'greet' }],
      }),
    );
    const discovery = await discoverCatalog(client);
    expect(discovery.complete).toBe(true);
    expect(discovery.prompts.map((p) => p.name)).toEqual(['greet']);
    expect(discovery.resources.map((r) => r.uri)).toEqual(['mem://one']);
    expect(discovery.resourceTemplates.map((t) => t.uriTemplate)).toEqual(['mem://{id}']);
  });

  it('stops an endless cursor at the page bound, never complete', async () => {
    const client = await connect(createEdgeServer({ cursor: 'endless' }));
    const discovery = await discoverCatalog(client, { maxPages: 10 });
    expect(discovery.complete).toBe(false);
    expect(discovery.lists.tools).toEqual({
      state: 'failed',
      pages: 10,
      failure: { reason: 'page_bound', page: 11 },
    });
    expect(discovery.tools).toHaveLength(10);
  });

  it('names a repeating cursor', async () => {
    const client = await connect(
      createEdgeServer({ tools: makeTools(30), pageSize: 10, cursor: 'repeating' }),
    );
    const discovery = await discoverCatalog(client);
    expect(discovery.complete).toBe(false);
    expect(discovery.lists.tools).toMatchObject({
      state: 'failed',
      failure: { reason: 'repeated_cursor', page: 2 },
    });
  });

  it('names an empty cursor as invalid', async () => {
    const client = await connect(createEdgeServer({ tools: makeTools(30), pageSize: 10, cursor: 'empty' }));
    const discovery = await discoverCatalog(client);
    expect(discovery.complete).toBe(false);
    expect(discovery.lists.tools).toMatchObject({
      state: 'failed',
      failure: { reason: 'invalid_cursor', page: 1 },
    });
  });

  it('names a server that refuses its own cursor', async () => {
    const client = await connect(createEdgeServer({ tools: makeTools(30), pageSize: 10, cursor: 'refused' }));
    const discovery = await discoverCatalog(client);
    expect(discovery.complete).toBe(false);
    expect(discovery.lists.tools).toEqual({
      state: 'failed',
      pages: 1,
      failure: { reason: 'server_error', page: 2, code: -32602 },
    });
    expect(discovery.tools).toHaveLength(10);
  });

  it('names a page the SDK cannot read (a cursor that is not a string)', async () => {
    const server = createEdgeServer();
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [],
      nextCursor: 7 as unknown as string,
    }));
    const client = await connect(server);
    const discovery = await discoverCatalog(client);
    expect(discovery.lists.tools).toMatchObject({ state: 'failed', failure: { reason: 'malformed_page' } });
  });

  it('times a page out on its own clock', async () => {
    const server = createEdgeServer();
    let release: () => void = () => undefined;
    server.setRequestHandler(
      ListToolsRequestSchema,
      () => new Promise((resolve) => (release = () => resolve({ tools: [] }))),
    );
    const client = await connect(server);
    const discovery = await discoverCatalog(client, { requestTimeoutMs: 50 });
    release();
    expect(discovery.complete).toBe(false);
    expect(discovery.lists.tools).toMatchObject({
      state: 'failed',
      failure: { reason: 'request_timeout', page: 1 },
    });
  });

  it('bounds entries per list', async () => {
    const client = await connect(createEdgeServer({ tools: makeTools(50), pageSize: 20 }));
    const discovery = await discoverCatalog(client, { maxEntries: 30 });
    expect(discovery.lists.tools).toMatchObject({
      state: 'failed',
      failure: { reason: 'entry_bound', page: 2 },
    });
    expect(discovery.tools).toHaveLength(20);
  });

  it('narrows each schema once and reads each result cap, with one diagnostic per tool', async () => {
    const tools = [
      {
        name: 'narrowed',
        inputSchema: { type: 'object' as const, properties: { s: { type: 'string', pattern: '^a' } } },
        _meta: { [RESULT_CAP_META_KEY]: 'lots' },
      },
      { name: 'wide', inputSchema: { type: 'object' as const }, _meta: { [RESULT_CAP_META_KEY]: 500_000 } },
      { name: 'wide', inputSchema: { type: 'object' as const } },
    ];
    const client = await connect(createEdgeServer({ tools }));
    const discovery = await discoverCatalog(client);
    expect(discovery.tools.map((t) => [t.name, t.resultCap.maxChars])).toEqual([
      ['narrowed', 100_000],
      ['wide', 500_000],
    ]);
    expect(discovery.tools[0]?.inputSchema).toEqual({
      type: 'object',
      properties: { s: { type: 'string' } },
    });
    expect(discovery.diagnostics).toEqual([
      { kind: 'duplicate_entry', list: 'tools', key: 'wide' },
      {
        kind: 'schema_narrowed',
        tool: 'narrowed',
        dropped: [{ path: '#/properties/s/pattern', reason: 'unsupported_keyword' }],
        droppedNotListed: 0,
      },
      { kind: 'result_cap_ignored', tool: 'narrowed', reason: 'result_cap_malformed' },
    ]);
  });

  it('stops the whole walk at its deadline', async () => {
    const server = createEdgeServer();
    server.setRequestHandler(ListToolsRequestSchema, () => new Promise(() => undefined));
    const client = await connect(server);
    const discovery = await discoverCatalog(client, { walkTimeoutMs: 50, requestTimeoutMs: 60_000 });
    expect(discovery.complete).toBe(false);
    expect(discovery.lists.tools).toMatchObject({ state: 'failed', failure: { reason: 'aborted' } });
  });
});
