import type { IncomingMessage } from 'node:http';
import { startStreamableHttpUpstream, TEST_DATABASE_TIMEOUT_MS } from '@gatehouse/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ElicitRequestSchema,
  ElicitResultSchema,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import {
  EVERYTHING,
  startGatewayStack,
  type GatewayStack,
  type StartedGateway,
} from '../acceptance/gateway-stack.harness.js';

// What of a caller's call reaches its upstream, and only its upstream (decisions 0106, 0107), through the
// real API and gateway and real SDK clients: two in-process SDK servers over Streamable HTTP, `traced` on an
// origin the tenant's HostPolicy lists in traceContextOrigins and whose definition opts in to elicitation, and
// `plain` on another origin, neither listed nor opted in. Each records every request it is sent. Gateway sessions
// are SDK clients sending their own traceparent on every request they make.

jest.setTimeout(120_000);

const TRACE_A = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
const TRACE_B = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00';

/** The whole stack (its own QUEUE_PREFIX and REDIS_KEY_PREFIX); its member alice is the user of these cases. */
let stack: GatewayStack;
let gateway: StartedGateway;
let traced: Upstream;
let plain: Upstream;

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
  const upstream = await startStreamableHttpUpstream(
    () =>
      upstreamServer(name, {
        started: () => {
          const now = started;
          started = [];
          for (const done of now) done();
        },
        get gate() {
          return gate;
        },
      }),
    { onRequest: record },
  );
  return {
    url: upstream.url,
    origin: new URL(upstream.url).origin,
    seen,
    next: (predicate) => new Promise((done) => waiting.push({ predicate, done })),
    slowStarted: () => new Promise((done) => started.push(done)),
    releaseSlow: () => {
      release();
      gate = new Promise<void>((done) => (release = done));
    },
    close: upstream.close,
  };
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
  token: string = stack.tokens.agent,
): Promise<Session> {
  const transport = new StreamableHTTPClientTransport(gateway.endpoint(), {
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
  stack = await startGatewayStack({ name: '16-call-context', stdioCommands: [[EVERYTHING, 'stdio']] });
  traced = await startUpstream('traced');
  plain = await startUpstream('plain');
  await stack.expectStatus('admin', 'PUT', '/v1/host-policy', 200, {
    stdioCommands: [[EVERYTHING, 'stdio']],
    headerHelpers: [],
    privateCidrs: [],
    // The listed origin without its port's default spelled out is the same origin as admitted.
    traceContextOrigins: [traced.origin],
    fourEyes: false,
  });
  await stack.defineServers('admin', 'managed', {
    traced: { type: 'http', url: traced.url, elicitation: true },
    plain: { type: 'http', url: plain.url, principalHeader: 'X-Principal' },
    everything: { type: 'stdio', command: EVERYTHING, args: ['stdio'], elicitation: true },
  });
  await stack.approve('traced');
  await stack.approve('plain');
  await stack.approve('everything');
  await stack.discoverAndSubmit('traced');
  await stack.discoverAndSubmit('plain');
  // Discovered with elicitation declared (its lease says it opted in): it lists its elicitation tool.
  await stack.discoverAndSubmit('everything');
  gateway = await stack.startGateway();
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await stack?.close();
  await traced?.close();
  await plain?.close();
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
    const user = await session({}, false, stack.tokens.alice);
    try {
      const result = await user.client.callTool({ name: 'mcp__plain__echo', arguments: { text: 'me' } });
      expect(textOf(result)).toBe('plain: me');
      expect(plain.seen.length).toBeGreaterThan(0);
      expect(plain.seen.every((seen) => seen.principal === stack.users.alice.id)).toBe(true);
    } finally {
      await user.client.close();
    }
  });

  it('is not sent for an agent (no principal), nor to a server that does not declare it', async () => {
    const agent = await session({});
    const user = await session({}, false, stack.tokens.alice);
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
