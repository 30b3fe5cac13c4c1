import { catalogDocumentV1 } from '@gatehouse/contracts';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  connectInMemory,
  createEdgeServer,
  makeTools,
  type Connected,
  type EdgeServerOptions,
} from '../discovery/test-support/edge-servers';
import { ConnectionSupervisor, type SupervisedConnection } from '../supervisor/connection-supervisor';
import { catalogDocumentOf, serverListingOf } from './server-listing.mapper';

// Discovery's output mapped onto libs/catalog's ServerListing, through a real supervisor over real SDK
// clients and low-level SDK servers on in-memory transport pairs (no I/O).

const SOURCE = { tier: 'project', origin: 'project:repo' } as const;
const FETCHED_AT = '2026-12-01T12:00:00.000Z';

describe('serverListingOf / catalogDocumentOf', () => {
  const open: Connected[] = [];
  const supervisors: ConnectionSupervisor[] = [];
  afterEach(async () => {
    await Promise.all(supervisors.splice(0).map((s) => s.close()));
    await Promise.all(open.splice(0).map((c) => c.close()));
  });

  const supervise = async (
    edge: EdgeServerOptions | ReturnType<typeof createEdgeServer>,
    connection: Partial<SupervisedConnection> = {},
  ) => {
    const server = 'setRequestHandler' in edge ? edge : createEdgeServer(edge);
    const supervisor = new ConnectionSupervisor({
      serverId: 'srv-1',
      connect: async () => {
        const connected = await connectInMemory(server);
        open.push(connected);
        return {
          ok: true,
          connection: {
            client: connected.client,
            protocolVersion: connected.protocolVersion() ?? '2025-11-25',
            close: connected.close,
            ...connection,
          },
        };
      },
    });
    supervisors.push(supervisor);
    await supervisor.start();
    const catalog = supervisor.catalog;
    if (catalog === undefined) throw new Error('no catalog');
    return catalog;
  };

  it('maps every declared list, the identity, and the narrowed paths; the document parses strictly', async () => {
    const tools = makeTools(2, {
      type: 'object',
      properties: { path: { type: 'string', pattern: '^/' } },
      required: ['path'],
    });
    const catalog = await supervise({
      name: 'files',
      version: '3.1.4',
      tools: [{ ...tools[0]!, title: 'First', annotations: { destructiveHint: true } }, tools[1]!],
      capabilities: { tools: {}, prompts: {}, resources: {} },
      prompts: [{ name: 'summarize' }],
    });
    const listing = serverListingOf(catalog, { server: 'files', source: SOURCE, fetchedAt: FETCHED_AT });
    expect(listing.identity).toEqual({
      server: 'files',
      protocolVersion: '2025-11-25',
      serverVersion: '3.1.4',
    });
    expect(listing.complete).toBe(true);
    expect(listing.failures).toEqual([]);
    expect(listing.tools?.map((t) => t.name)).toEqual(['tool_0', 'tool_1']);
    expect(listing.tools?.[0]).toMatchObject({
      title: 'First',
      annotations: { destructiveHint: true },
      narrowedPaths: ['#/properties/path/pattern'],
    });
    expect(listing.tools?.[0]?.inputSchema).toMatchObject({ properties: { path: { type: 'string' } } });
    expect(listing.tools?.[0]?.inputSchema).not.toHaveProperty('properties.path.pattern');
    expect(listing.prompts).toEqual([{ name: 'summarize' }]);
    expect(listing.resources).toEqual([{ uri: 'mem://one', name: 'one' }]);
    expect(listing.resourceTemplates).toEqual([{ uriTemplate: 'mem://{id}', name: 'by id' }]);

    const document = catalogDocumentOf(catalog, {
      server: 'files',
      source: SOURCE,
      fetchedAt: FETCHED_AT,
      options: { allowTools: ['tool_0'] },
    });
    expect(catalogDocumentV1.parse(document)).toEqual(document);
    const [server] = document.servers;
    expect(server?.tools.map((t) => t.name)).toEqual(['mcp__files__tool_0']);
    expect(server?.tools[0]?.axes).toMatchObject({ effect: 'write', irreversibility: 'always' });
    expect(server?.prompts.map((p) => p.name)).toEqual(['mcp__files__summarize']);
    expect(server?.diagnostics).toContainEqual({
      code: 'schema_narrowed',
      server: 'files',
      tool: 'tool_0',
      paths: ['#/properties/path/pattern'],
    });
    expect(document.complete).toBe(true);
  });

  it('leaves undeclared lists absent and uses the supervisor id as the default server name', async () => {
    const catalog = await supervise({ tools: makeTools(1), capabilities: { tools: {} } });
    const listing = serverListingOf(catalog, { source: SOURCE, fetchedAt: FETCHED_AT });
    expect(listing.identity.server).toBe('srv-1');
    expect(listing.prompts).toBeUndefined();
    expect(listing.resources).toBeUndefined();
    expect(listing.resourceTemplates).toBeUndefined();
  });

  it('carries a failed list as a listing failure with discovery reason: never a complete document', async () => {
    const catalog = await supervise({ tools: makeTools(250), pageSize: 100, cursor: 'repeating' });
    expect(catalog.complete).toBe(false);
    const document = catalogDocumentOf(catalog, { server: 'loop', source: SOURCE, fetchedAt: FETCHED_AT });
    expect(document.complete).toBe(false);
    expect(document.servers[0]?.diagnostics).toContainEqual({
      code: 'listing_failed',
      server: 'loop',
      capability: 'tools',
      reason: 'repeated_cursor',
    });
  });

  it('bounds the initial listing by the connection startup bound (one walk)', async () => {
    const server = createEdgeServer({ tools: makeTools(1) });
    // A listing that never answers: only the startup bound ends the walk.
    server.setRequestHandler(ListToolsRequestSchema, () => new Promise<never>(() => undefined));
    const catalog = await supervise(server, { initialListingTimeoutMs: 50 });
    expect(catalog.complete).toBe(false);
    expect(catalog.discovery.lists.tools).toMatchObject({ state: 'failed', failure: { reason: 'aborted' } });
    const document = catalogDocumentOf(catalog, { server: 'slow', source: SOURCE, fetchedAt: FETCHED_AT });
    expect(document.servers[0]?.diagnostics).toContainEqual({
      code: 'listing_failed',
      server: 'slow',
      capability: 'tools',
      reason: 'aborted',
    });
  });
});
