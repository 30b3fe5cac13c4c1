import Fastify, { type FastifyInstance } from 'fastify';
import mercurius from 'mercurius';
import {
  assertCrossTenantReport,
  runCrossTenantHarness,
  type CrossTenantHarnessOptions,
  type GraphQLFieldCase,
  type RouteCase,
} from './cross-tenant.harness';
import { collectRoutes, type CollectedRoutes } from './route-collector';

// A small real Fastify + mercurius server with two tenants' "things", some routes scoped correctly and some
// deliberately broken, to show the harness passes the good ones and fails each kind of bad one.

interface Thing {
  id: string;
  tenant: string;
  name: string;
}

const THINGS: Thing[] = [
  { id: 'a-thing-1', tenant: 'A', name: 'alpha secret plans' },
  { id: 'b-thing-1', tenant: 'B', name: 'bravo notes' },
];

type Flaw =
  | 'extra_route'
  | 'leaky_route'
  | 'forbidden_route'
  | 'leaky_list'
  | 'leaky_field'
  | 'extra_field'
  | 'forbidden_field';

function tenantOf(authorization: string | undefined): string | null {
  return authorization === 'Bearer token-a' ? 'A' : authorization === 'Bearer token-b' ? 'B' : null;
}

/** The GraphQL context built below. */
function tenantIn(ctx: unknown): string | null {
  return (ctx as { tenant: string | null }).tenant;
}

function problem(status: number, code: string) {
  return { type: `urn:test:${code}`, title: code, status, code };
}

async function buildServer(
  flaws: readonly Flaw[] = [],
): Promise<{ app: FastifyInstance; collected: CollectedRoutes }> {
  const app = Fastify();
  const collected = collectRoutes(app);
  const has = (flaw: Flaw) => flaws.includes(flaw);

  app.get('/healthz', async () => ({ status: 'ok' }));
  await app.register(async (scope) => {
    scope.addHook('preHandler', async (request, reply) => {
      if (tenantOf(request.headers.authorization) === null)
        return reply.code(401).send(problem(401, 'unauthenticated'));
    });
    scope.get('/v1/things', async (request) => {
      const tenant = tenantOf(request.headers.authorization);
      return { items: THINGS.filter((t) => has('leaky_list') || t.tenant === tenant) };
    });
    scope.get<{ Params: { id: string } }>('/v1/things/:id', async (request, reply) => {
      const tenant = tenantOf(request.headers.authorization);
      const thing = THINGS.find((t) => t.id === request.params.id && t.tenant === tenant);
      if (!thing) return reply.code(404).send({ ...problem(404, 'not_found'), instance: request.url });
      return thing;
    });
    scope.post<{ Params: { id: string }; Body: { name: string } }>(
      '/v1/things/:id/rename',
      async (request, reply) => {
        const tenant = tenantOf(request.headers.authorization);
        const thing = THINGS.find((t) => t.id === request.params.id);
        if (!thing || thing.tenant !== tenant) {
          if (thing && has('forbidden_route')) return reply.code(403).send(problem(403, 'forbidden'));
          return reply.code(404).send(problem(404, 'not_found'));
        }
        return { ...thing, name: request.body.name };
      },
    );
    if (has('leaky_route')) {
      scope.get<{ Params: { id: string } }>(
        '/v1/leaky/:id',
        async (request) => THINGS.find((t) => t.id === request.params.id) ?? {},
      );
    }
    if (has('extra_route')) scope.delete('/v1/things/:id', async () => ({ deleted: true }));
  });

  const notFound = () =>
    Object.assign(new Error('No such thing.'), { extensions: { code: 'not_found', status: 404 } });
  await app.register(mercurius, {
    // mercurius' query cache loads quick-lru (ESM) with a dynamic import(); the test needs no cache.
    cache: false,
    schema: `
      type Thing { id: ID!, name: String! }
      type Query { things: [Thing!]!, thing(id: ID!): Thing ${has('extra_field') ? ', other: Int' : ''} }
      type Mutation { renameThing(id: ID!, name: String!): Thing }
    `,
    resolvers: {
      Query: {
        things: (_: unknown, __: unknown, ctx: unknown) => THINGS.filter((t) => t.tenant === tenantIn(ctx)),
        thing: (_: unknown, args: { id: string }, ctx: unknown) => {
          const thing = THINGS.find(
            (t) => t.id === args.id && (has('leaky_field') || t.tenant === tenantIn(ctx)),
          );
          if (!thing) throw notFound();
          return thing;
        },
        ...(has('extra_field') ? { other: () => 1 } : {}),
      },
      Mutation: {
        renameThing: (_: unknown, args: { id: string }, ctx: unknown) => {
          const thing = THINGS.find((t) => t.id === args.id);
          if (thing && thing.tenant !== tenantIn(ctx) && has('forbidden_field')) {
            throw Object.assign(new Error('Forbidden.'), { extensions: { code: 'forbidden', status: 403 } });
          }
          throw notFound();
        },
      },
    },
    context: (request) => ({ tenant: tenantOf(request.headers.authorization) }),
  });
  await app.ready();
  return { app, collected };
}

const routeCases: RouteCase[] = [
  { route: 'GET /v1/things', url: '/v1/things', expect: 'no_victim_data' },
  { route: 'GET /v1/things/:id', url: '/v1/things/a-thing-1', expect: 'not_found' },
  {
    route: 'POST /v1/things/:id/rename',
    url: '/v1/things/a-thing-1/rename',
    payload: { name: 'x' },
    expect: 'not_found',
  },
];

const fieldCases: GraphQLFieldCase[] = [
  { field: 'Query.things', query: '{ things { id name } }', expect: 'no_victim_data' },
  {
    field: 'Query.thing',
    query: 'query ($id: ID!) { thing(id: $id) { id name } }',
    variables: { id: 'a-thing-1' },
    expect: 'not_found',
  },
  {
    field: 'Mutation.renameThing',
    query: 'mutation { renameThing(id: "a-thing-1", name: "x") { id } }',
    expect: 'not_found',
  },
];

async function harness(flaws: readonly Flaw[], overrides: Partial<CrossTenantHarnessOptions> = {}) {
  const { app, collected } = await buildServer(flaws);
  const lines: string[] = [];
  try {
    const report = await runCrossTenantHarness({
      app,
      routes: collected,
      attackerHeaders: { authorization: 'Bearer token-b' },
      victimMarkers: ['a-thing-1', 'alpha secret plans'],
      cases: routeCases,
      graphql: { path: '/graphql', cases: fieldCases },
      log: (line) => lines.push(line),
      ...overrides,
    });
    return { report, lines };
  } finally {
    await app.close();
  }
}

describe('runCrossTenantHarness', () => {
  it('passes a correctly scoped server and prints what it covered', async () => {
    const { report, lines } = await harness([]);
    expect(report.failures).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.routes).toEqual({ total: 3, passed: 3 });
    expect(report.fields).toEqual({ total: 3, passed: 3 });
    expect(lines).toEqual(['cross-tenant harness: 3/3 routes, 3/3 GraphQL fields']);
    expect(() => assertCrossTenantReport(report)).not.toThrow();
  });

  it('collects every registered route, plugins and HEAD included (the harness then skips HEAD, public routes and /graphql)', async () => {
    const { app, collected } = await buildServer([]);
    await app.close();
    const keys = collected.routes.map((r) => `${r.method} ${r.url}`);
    expect(keys).toEqual(
      expect.arrayContaining(['GET /healthz', 'HEAD /v1/things', 'GET /v1/things/:id', 'POST /graphql']),
    );
  });

  it('fails, naming it, when a registered route has no case', async () => {
    const { report } = await harness(['extra_route']);
    expect(report.ok).toBe(false);
    expect(report.uncoveredRoutes).toEqual(['DELETE /v1/things/:id']);
    expect(() => assertCrossTenantReport(report)).toThrow(/no case for route DELETE \/v1\/things\/:id/);
  });

  it("fails when a route returns tenant A's resource to tenant B", async () => {
    const { report } = await harness(['leaky_route'], {
      cases: [...routeCases, { route: 'GET /v1/leaky/:id', url: '/v1/leaky/a-thing-1', expect: 'not_found' }],
    });
    expect(report.ok).toBe(false);
    expect(report.failures).toEqual([
      expect.stringMatching(/^GET \/v1\/leaky\/:id .*leaks tenant A's data: alpha secret plans/),
    ]);
  });

  it("fails when a list route includes tenant A's rows", async () => {
    const { report } = await harness(['leaky_list']);
    expect(report.failures).toEqual([
      expect.stringMatching(/^GET \/v1\/things .*leaks tenant A's data: a-thing-1, alpha secret plans/),
    ]);
  });

  it('fails on a 403 that confirms the resource exists', async () => {
    const { report } = await harness(['forbidden_route']);
    expect(report.failures).toEqual([expect.stringMatching(/POST \/v1\/things\/:id\/rename .*403 confirms/)]);
  });

  it('fails, naming it, when a GraphQL field has no case, leaks, or answers forbidden', async () => {
    const extra = await harness(['extra_field']);
    expect(extra.report.uncoveredFields).toEqual(['Query.other']);
    expect(extra.lines[0]).toMatch(/^cross-tenant harness: 3\/3 routes, 3\/4 GraphQL fields \(FAILED/);
    const leaky = await harness(['leaky_field']);
    expect(leaky.report.failures).toEqual([
      expect.stringMatching(/^Query\.thing: response leaks tenant A's data: alpha secret plans/),
    ]);
    const forbidden = await harness(['forbidden_field']);
    expect(forbidden.report.failures).toEqual([
      expect.stringMatching(/^Mutation\.renameThing: a forbidden error confirms/),
    ]);
  });

  it('refuses cases that do not exercise what they claim', async () => {
    const { report } = await harness([], {
      cases: [
        { ...routeCases[0], url: '/v1/other' } as RouteCase,
        ...routeCases.slice(1),
        { route: 'GET /v1/gone/:id', url: '/v1/gone/a-thing-1', expect: 'not_found' },
      ],
      graphql: {
        path: '/graphql',
        cases: [
          { ...fieldCases[0], query: '{ thing(id: "a-thing-1") { id } }' } as GraphQLFieldCase,
          ...fieldCases.slice(1),
        ],
      },
    });
    expect(report.failures).toEqual(
      expect.arrayContaining([
        'GET /v1/gone/:id: case for a route the server did not register (or a public one)',
        'GET /v1/things (/v1/other): the case URL does not match the route pattern /v1/things',
        'Query.things: the case document selects Query.thing, not Query.things',
      ]),
    );
  });

  it("fails a not_found case answered with anything but 404 not_found, e.g. B's token being refused", async () => {
    const { report } = await harness([], { attackerHeaders: { authorization: 'Bearer nobody' } });
    expect(report.ok).toBe(false);
    expect(report.failures).toEqual(
      expect.arrayContaining([
        "GET /v1/things (/v1/things): expected a 2xx holding none of A's data, got 401 (a refusal proves nothing)",
        'GET /v1/things/:id (/v1/things/a-thing-1): expected 404 not_found, got 401',
      ]),
    );
  });
});

describe('admin-over-MCP tools', () => {
  // A stateless JSON-RPC endpoint answering like admin MCP: tools/list, then tools/call results (isError with the
  // problem in structuredContent for a refusal). `leaky_tool` hands A's thing to B; `forbidden_tool` says 403.
  type ToolFlaw = 'leaky_tool' | 'forbidden_tool' | 'extra_tool';
  async function mcpServer(flaws: readonly ToolFlaw[] = []) {
    const app = Fastify();
    const collected = collectRoutes(app);
    app.post<{
      Body: { id: number; method: string; params: { name?: string; arguments?: { id?: string } } };
    }>('/mcp/admin', async (request) => {
      const tenant = tenantOf(request.headers.authorization);
      const { id, method, params } = request.body;
      if (method === 'tools/list') {
        const names = [
          'command_things_get',
          'command_help',
          ...(flaws.includes('extra_tool') ? ['command_x'] : []),
        ];
        return { jsonrpc: '2.0', id, result: { tools: names.map((name) => ({ name })) } };
      }
      if (params.name === 'command_help') return { jsonrpc: '2.0', id, result: { content: [] } };
      const thing = THINGS.find((t) => t.id === params.arguments?.id);
      if (thing && (thing.tenant === tenant || flaws.includes('leaky_tool')))
        return { jsonrpc: '2.0', id, result: { content: [], structuredContent: thing } };
      const refusal =
        thing && flaws.includes('forbidden_tool') ? problem(403, 'forbidden') : problem(404, 'not_found');
      return { jsonrpc: '2.0', id, result: { isError: true, content: [], structuredContent: refusal } };
    });
    await app.ready();
    return { app, collected };
  }
  const cases = [
    { tool: 'command_things_get', arguments: { id: 'a-thing-1' }, expect: 'not_found' as const },
    { tool: 'command_help', expect: 'no_victim_data' as const },
  ];
  const harness = async (flaws: readonly ToolFlaw[]) => {
    const { app, collected } = await mcpServer(flaws);
    try {
      return await runCrossTenantHarness({
        app,
        routes: collected,
        attackerHeaders: { authorization: 'Bearer token-b' },
        victimMarkers: ['a-thing-1', 'alpha secret plans'],
        cases: [],
        mcp: { path: '/mcp/admin', cases },
        log: () => undefined,
      });
    } finally {
      await app.close();
    }
  };

  it('enumerates the tools, leaves the endpoint route to them, and passes correct answers', async () => {
    const report = await harness([]);
    expect(report.failures).toEqual([]);
    expect(report.tools).toEqual({ total: 2, passed: 2 });
    expect(report.routes.total).toBe(0);
    expect(report.summary).toContain('2/2 MCP tools');
    expect(() => assertCrossTenantReport(report)).not.toThrow();
  });

  it('fails a leaking tool, a forbidden answer and a tool without a case', async () => {
    const leaky = await harness(['leaky_tool']);
    expect(leaky.failures.join('\n')).toContain("leaks tenant A's data");
    const forbidden = await harness(['forbidden_tool']);
    expect(forbidden.failures.join('\n')).toContain('confirms that tenant A');
    const extra = await harness(['extra_tool']);
    expect(extra.uncoveredTools).toEqual(['command_x']);
    expect(() => assertCrossTenantReport(extra)).toThrow('no case for MCP tool command_x');
  });
});
