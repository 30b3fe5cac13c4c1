import {
  startStreamableHttpUpstream,
  TEST_DATABASE_TIMEOUT_MS,
  type StreamableHttpUpstream,
} from '@gatehouse/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import {
  connectSdkClient,
  startGatewayStack,
  type GatewayStack,
  type StartedGateway,
} from '../acceptance/gateway-stack.harness';
import { MAX_ARGUMENT_DEPTH, MAX_ARGUMENT_MEMBERS } from './argument-bounds';

// Arguments are bounded before any upstream sees them (decision 0130): nesting past MAX_ARGUMENT_DEPTH or a
// container wider than MAX_ARGUMENT_MEMBERS in a tools/call (the warm path and the SDK transport's), a prompts/get
// or a completion/complete is refused -32602 naming the bound. 100,000 levels (about 600 KB, under the body cap)
// once broke the shared upstream connection for every caller on it: here the upstream is never sent such a
// request, and another caller on the same upstream is served right after. The body is sent as text (JSON.stringify
// of such a value would overflow this test's own stack).

jest.setTimeout(120_000);

const PROTOCOL = '2025-11-25';

let stack: GatewayStack;
let gateway: StartedGateway;
let upstream: StreamableHttpUpstream;
let other: Client;
/** The JSON-RPC methods the upstream was sent, in order. */
const seen: string[] = [];

function boundedServer(): Server {
  const server = new Server(
    { name: 'bounded', version: '1.0.0' },
    { capabilities: { tools: {}, prompts: {}, completions: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: 'echo', inputSchema: { type: 'object' } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => ({
    content: [{ type: 'text', text: `echo: ${Object.keys(request.params.arguments ?? {}).join(',')}` }],
  }));
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: [{ name: 'greet', arguments: [{ name: 'who' }] }],
  }));
  server.setRequestHandler(GetPromptRequestSchema, async () => ({
    messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'Hello' } }],
  }));
  server.setRequestHandler(CompleteRequestSchema, async () => ({ completion: { values: ['one'] } }));
  return server;
}

/** `{"a":{"a":...1...}}`: an object nested `depth` levels (the outermost is level 1), as text. */
function nestedText(depth: number): string {
  return `${'{"a":'.repeat(depth - 1)}{"a":1}${'}'.repeat(depth - 1)}`;
}

function post(text: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(gateway.endpoint(), {
    method: 'POST',
    headers: {
      authorization: `Bearer ${stack.tokens.agent}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: text,
  });
}

/** An initialized session (opened by hand, so requests can be sent as raw text). */
async function openSession(): Promise<string> {
  const initialize = await post(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'bounds', version: '0' } },
    }),
  );
  const id = initialize.headers.get('mcp-session-id');
  await initialize.text();
  if (id === null) throw new Error('initialize opened no session');
  const initialized = await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), {
    'mcp-session-id': id,
  });
  expect(initialized.status).toBe(202);
  return id;
}

/** The one JSON-RPC answer of a response, whether JSON (the warm path) or an event stream (the SDK transport). */
async function answerOf(response: Response): Promise<Record<string, unknown>> {
  expect(response.status).toBe(200);
  const text = await response.text();
  if (response.headers.get('content-type') === 'application/json') return JSON.parse(text);
  const data = text
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice('data:'.length).trim());
  expect(data).toHaveLength(1);
  const parsed: unknown = JSON.parse(data[0] as string);
  return (Array.isArray(parsed) ? parsed[0] : parsed) as Record<string, unknown>;
}

function request(id: string, method: string, paramsText: string): string {
  return `{"jsonrpc":"2.0","id":"${id}","method":"${method}","params":${paramsText}}`;
}

const toolCall = (id: string, argumentsText: string) =>
  request(id, 'tools/call', `{"name":"mcp__bounded__echo","arguments":${argumentsText}}`);

let session: string;

beforeAll(async () => {
  upstream = await startStreamableHttpUpstream(boundedServer, {
    onRequest: (_req, body) => {
      const method = (body as { method?: unknown } | undefined)?.method;
      if (typeof method === 'string') seen.push(method);
    },
  });
  stack = await startGatewayStack({ name: 'argument-bounds', stdioCommands: [] });
  await stack.defineServers('admin', 'managed', { bounded: { type: 'http', url: upstream.url } });
  await stack.approve('bounded');
  await stack.discoverAndSubmit('bounded');
  gateway = await stack.startGateway();
  other = await connectSdkClient(gateway.endpoint(), stack.tokens.agent);
  session = await openSession();
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await other?.close();
  await stack?.close();
  await upstream?.close();
}, TEST_DATABASE_TIMEOUT_MS);

beforeEach(() => {
  seen.length = 0;
});

/** Another caller on the same upstream connection is served, and the upstream saw no refused request. */
async function upstreamUnharmed(refusedMethod: string): Promise<void> {
  const answer = await other.callTool({ name: 'mcp__bounded__echo', arguments: { fine: 1 } });
  expect(answer.content).toEqual([{ type: 'text', text: 'echo: fine' }]);
  expect(seen.filter((method) => method === refusedMethod)).toHaveLength(
    refusedMethod === 'tools/call' ? 1 : 0,
  );
}

const tooDeep = { code: -32602, data: { reason: 'argument_too_deep', limit: MAX_ARGUMENT_DEPTH } };

describe('tools/call arguments', () => {
  it.each([
    ['100,000 levels', 100_000],
    ['one level past the bound', MAX_ARGUMENT_DEPTH + 1],
  ])('nested %s are refused -32602 on the warm path, never sent upstream', async (_case, depth) => {
    const answer = await answerOf(
      await post(toolCall('deep', nestedText(depth)), {
        'mcp-session-id': session,
        'mcp-protocol-version': PROTOCOL,
      }),
    );
    expect(answer).toMatchObject({ id: 'deep', error: tooDeep });
    await upstreamUnharmed('tools/call');
  });

  it.each([
    ['100,000 levels', 100_000],
    ['one level past the bound', MAX_ARGUMENT_DEPTH + 1],
  ])('nested %s are refused -32602 through the SDK transport (a batch of one)', async (_case, depth) => {
    const answer = await answerOf(
      await post(`[${toolCall('deep', nestedText(depth))}]`, {
        'mcp-session-id': session,
        'mcp-protocol-version': PROTOCOL,
      }),
    );
    expect(answer).toMatchObject({ id: 'deep', error: tooDeep });
    await upstreamUnharmed('tools/call');
  });

  it('nested exactly to the bound are sent upstream', async () => {
    const answer = await answerOf(
      await post(toolCall('edge', nestedText(MAX_ARGUMENT_DEPTH)), {
        'mcp-session-id': session,
        'mcp-protocol-version': PROTOCOL,
      }),
    );
    expect(answer).toMatchObject({ id: 'edge', result: { content: [{ text: 'echo: a' }] } });
  });

  it('an object wider than the bound is refused -32602 naming it', async () => {
    const wide = `{${Array.from({ length: MAX_ARGUMENT_MEMBERS + 1 }, (_, i) => `"k${i}":${i}`).join(',')}}`;
    const answer = await answerOf(
      await post(toolCall('wide', wide), { 'mcp-session-id': session, 'mcp-protocol-version': PROTOCOL }),
    );
    expect(answer).toMatchObject({
      id: 'wide',
      error: { code: -32602, data: { reason: 'argument_too_wide', limit: MAX_ARGUMENT_MEMBERS } },
    });
    await upstreamUnharmed('tools/call');
  });

  it('is read by the body parser in one pass even when its prototype-key scan must walk it', async () => {
    // A body naming `constructor` is walked by Fastify's prototype-poisoning filter (iteratively, breadth first).
    const args = `{"constructor":1,"deep":${nestedText(100_000)}}`;
    const answer = await answerOf(
      await post(toolCall('walked', args), { 'mcp-session-id': session, 'mcp-protocol-version': PROTOCOL }),
    );
    expect(answer).toMatchObject({ id: 'walked', error: tooDeep });
    await upstreamUnharmed('tools/call');
  });

  it('a stateless request is bounded too', async () => {
    const answer = await answerOf(await post(toolCall('stateless', nestedText(100_000))));
    expect(answer).toMatchObject({ id: 'stateless', error: tooDeep });
    await upstreamUnharmed('tools/call');
  });
});

describe('prompts/get and completion/complete arguments', () => {
  it('prompts/get with 100,000-deep arguments is refused -32602, never sent upstream', async () => {
    const params = `{"name":"mcp__bounded__greet","arguments":{"who":${nestedText(100_000)}}}`;
    const answer = await answerOf(
      await post(request('prompt', 'prompts/get', params), {
        'mcp-session-id': session,
        'mcp-protocol-version': PROTOCOL,
      }),
    );
    expect(answer).toMatchObject({ id: 'prompt', error: tooDeep });
    await upstreamUnharmed('prompts/get');
  });

  it('prompts/get with an argument that is not a string is refused -32602 naming it', async () => {
    const params = '{"name":"mcp__bounded__greet","arguments":{"who":{"a":1}}}';
    const answer = await answerOf(
      await post(request('prompt', 'prompts/get', params), {
        'mcp-session-id': session,
        'mcp-protocol-version': PROTOCOL,
      }),
    );
    expect(answer).toMatchObject({
      id: 'prompt',
      error: {
        code: -32602,
        data: { reason: 'invalid_arguments', argument: 'who', problem: 'not_a_string' },
      },
    });
    await upstreamUnharmed('prompts/get');
  });

  it('prompts/get on the 2026-07-28 leg: an argument that is not a string is refused -32602 naming it, too', async () => {
    const envelope = JSON.stringify({
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'bounds', version: '0' },
    });
    const params = `{"name":"mcp__bounded__greet","arguments":{"who":{"a":1}},"_meta":${envelope}}`;
    const answer = await answerOf(
      await post(request('prompt-2026', 'prompts/get', params), {
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'prompts/get',
        'mcp-name': 'mcp__bounded__greet',
      }),
    );
    expect(answer).toMatchObject({
      id: 'prompt-2026',
      error: {
        code: -32602,
        data: { reason: 'invalid_arguments', argument: 'who', problem: 'not_a_string' },
      },
    });
    await upstreamUnharmed('prompts/get');
  });

  it('completion/complete with a 100,000-deep context argument is refused -32602, never sent upstream', async () => {
    const params =
      '{"ref":{"type":"ref/prompt","name":"mcp__bounded__greet"},"argument":{"name":"who","value":"a"},' +
      `"context":{"arguments":{"x":${nestedText(100_000)}}}}`;
    const answer = await answerOf(
      await post(request('complete', 'completion/complete', params), {
        'mcp-session-id': session,
        'mcp-protocol-version': PROTOCOL,
      }),
    );
    expect(answer).toMatchObject({ id: 'complete', error: tooDeep });
    await upstreamUnharmed('completion/complete');
  });
});
