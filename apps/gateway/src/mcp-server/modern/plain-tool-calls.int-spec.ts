import {
  startStreamableHttpUpstream,
  TEST_DATABASE_TIMEOUT_MS,
  type StreamableHttpUpstream,
} from '@gatehouse/testing';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  startGatewayStack,
  type GatewayStack,
  type StartedGateway,
} from '../../acceptance/gateway-stack.harness';

// The 2026 leg's plain tools/call (decision 0146) answers exactly as the SDK's per-request server answers the same
// call. Each case sends one call three ways with raw fetch: plain (this path's), and twice in a form only the SDK
// serves (the client declares elicitation: a bridge round, had the tool asked; the call asks for progress: an
// event stream, had the tool sent any). None of these tools asks or reports progress, so the three answers must
// be the same JSON-RPC message, and the upstream is called once for each.

jest.setTimeout(60_000);

const MODERN = '2026-07-28';
const envelope = (capabilities: Record<string, unknown> = {}) => ({
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': capabilities,
  'io.modelcontextprotocol/clientInfo': { name: 'plain-spec', version: '0' },
});

let stack: GatewayStack;
let gateway: StartedGateway;
let upstream: StreamableHttpUpstream;
const called: string[] = [];

function recordingServer(): Server {
  const server = new Server({ name: 'plain', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: ['echo', 'fail', 'broken'].map((name) => ({ name, inputSchema: { type: 'object' as const } })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const text = String(request.params.arguments?.['text']);
    called.push(`${request.params.name}:${text}`);
    if (request.params.name === 'fail')
      return { content: [{ type: 'text', text: `failed: ${text}` }], isError: true };
    if (request.params.name === 'broken') throw new McpError(-32603, 'the upstream broke');
    return {
      content: [{ type: 'text', text: `echo: ${text}` }],
      structuredContent: { echoed: text },
      _meta: { 'example.com/upstream': 'kept' },
    };
  });
  return server;
}

type Way = 'plain' | 'declares elicitation' | 'asks for progress';

function bodyOf(way: Way, id: number, name: string, text: string) {
  const meta =
    way === 'declares elicitation'
      ? envelope({ elicitation: {} })
      : way === 'asks for progress'
        ? { ...envelope(), progressToken: `p-${id}` }
        : envelope();
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: { text }, _meta: meta } };
}

/** The one JSON-RPC message a call was answered with (JSON, or the only event of a stream). */
async function answerOf(answer: Response): Promise<unknown> {
  const text = await answer.text();
  if (!(answer.headers.get('content-type') ?? '').startsWith('text/event-stream')) return JSON.parse(text);
  const events = text
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => JSON.parse(line.slice('data:'.length)) as unknown);
  expect(events).toHaveLength(1);
  return events[0];
}

async function callEachWay(endpoint: URL, name: string, text: string): Promise<Record<Way, unknown>> {
  const ways: Way[] = ['plain', 'declares elicitation', 'asks for progress'];
  const answers: Partial<Record<Way, unknown>> = {};
  for (const way of ways) {
    const answer = await fetch(endpoint, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${stack.tokens.agent}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MODERN,
        'mcp-method': 'tools/call',
        'mcp-name': name,
      },
      body: JSON.stringify(bodyOf(way, 7, name, text)),
    });
    expect(answer.status).toBe(200);
    answers[way] = await answerOf(answer);
  }
  return answers as Record<Way, unknown>;
}

beforeAll(async () => {
  stack = await startGatewayStack({ name: 'plain-tool-calls', stdioCommands: [] });
  upstream = await startStreamableHttpUpstream(recordingServer);
  await stack.defineServers('admin', 'managed', { plain: { type: 'http', url: upstream.url } });
  await stack.approve('plain');
  await stack.discoverAndSubmit('plain');
  gateway = await stack.startGateway();
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await stack?.close();
  await upstream?.close();
}, TEST_DATABASE_TIMEOUT_MS);

beforeEach(() => {
  called.length = 0;
});

describe('a plain 2026 tools/call answers as the SDK does', () => {
  it('a result: the same message, resultType and the server identity stamped, the upstream _meta kept', async () => {
    const answers = await callEachWay(gateway.endpoint(), 'mcp__plain__echo', 'hi');
    expect(answers.plain).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: {
        content: [{ type: 'text', text: 'echo: hi' }],
        structuredContent: { echoed: 'hi' },
        resultType: 'complete',
        _meta: {
          'example.com/upstream': 'kept',
          'io.modelcontextprotocol/serverInfo': expect.objectContaining({ name: expect.any(String) }),
        },
      },
    });
    expect(answers['declares elicitation']).toEqual(answers.plain);
    expect(answers['asks for progress']).toEqual(answers.plain);
    expect(called).toEqual(['echo:hi', 'echo:hi', 'echo:hi']);
  });

  it('a tool error: the same result with isError', async () => {
    const answers = await callEachWay(gateway.endpoint(), 'mcp__plain__fail', 'x');
    expect(answers.plain).toMatchObject({ result: { isError: true, resultType: 'complete' } });
    expect(answers['declares elicitation']).toEqual(answers.plain);
    expect(answers['asks for progress']).toEqual(answers.plain);
  });

  it("an upstream's error: the same JSON-RPC error", async () => {
    const answers = await callEachWay(gateway.endpoint(), 'mcp__plain__broken', 'x');
    expect(answers.plain).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: expect.any(Number) } });
    expect(answers['declares elicitation']).toEqual(answers.plain);
    expect(answers['asks for progress']).toEqual(answers.plain);
  });

  it('an unknown tool: the same -32602 with its reason; no upstream is asked', async () => {
    const answers = await callEachWay(gateway.endpoint(), 'mcp__plain__nope', 'x');
    expect(answers.plain).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32602, message: 'Unknown tool', data: { reason: 'unknown_tool' } },
    });
    expect(answers['declares elicitation']).toEqual(answers.plain);
    expect(answers['asks for progress']).toEqual(answers.plain);
    expect(called).toEqual([]);
  });

  it("on a server's passthrough too, under the server's own names", async () => {
    const passthrough = new URL(`${gateway.endpoint().toString()}/s/plain`);
    const answers = await callEachWay(passthrough, 'echo', 'through');
    expect(answers.plain).toMatchObject({ result: { content: [{ type: 'text', text: 'echo: through' }] } });
    expect(answers['declares elicitation']).toEqual(answers.plain);
    expect(answers['asks for progress']).toEqual(answers.plain);
  });
});
