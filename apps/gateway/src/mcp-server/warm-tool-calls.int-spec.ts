import type { IncomingMessage } from 'node:http';
import {
  startStreamableHttpUpstream,
  TEST_DATABASE_TIMEOUT_MS,
  type StreamableHttpUpstream,
} from '@gatehouse/testing';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ElicitResultSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import {
  connectSdkClient,
  startGatewayStack,
  type GatewayStack,
  type StartedGateway,
} from '../acceptance/gateway-stack.harness';

// The warm-call path's wire behaviour (decision 0125), through the real API and gateway in front of one in-process
// SDK upstream that opted in to elicitation and records every request it is sent. Sessions are opened by hand and
// driven with raw `fetch`: what is asserted is exactly what a client receives. A warm call's answer is JSON until
// the call must speak first (progress, an elicitation); whatever the path does not take (a batch, bad params,
// headers the SDK transport refuses) is the transport's, as before: answered by the SDK, and the upstream never
// sees a call it should not.

jest.setTimeout(60_000);

const PROTOCOL = '2025-11-25';
const ACCEPT_BOTH = 'application/json, text/event-stream';

type JsonRpc = Record<string, unknown>;

let stack: GatewayStack;
let gateway: StartedGateway;
let upstream: RecordingUpstream;

/** One request the upstream was sent: its JSON-RPC method and id, the text it was called with, what it cancels. */
interface Seen {
  readonly rpc: string | null;
  readonly id: unknown;
  readonly text: string | null;
  readonly cancels: unknown;
}

interface RecordingUpstream {
  readonly url: string;
  readonly seen: Seen[];
  /** The tools/call texts the upstream was sent, in order. */
  readonly calls: () => (string | null)[];
  /** Resolves the next time a request matching `predicate` is recorded. */
  readonly next: (predicate: (seen: Seen) => boolean) => Promise<Seen>;
  /** Resolves when a `slow` call is running; `releaseSlow` lets every running one answer. */
  readonly slowStarted: () => Promise<void>;
  readonly releaseSlow: () => void;
  readonly close: () => Promise<void>;
}

/**
 * `echo`, `fail` (a tool error), `slow` (held until released or cancelled), `steps` (3 progress), `ask` (elicits),
 * `hurry` (elicits, and gives up on the answer after 200 ms: the upstream cancels its elicitation).
 */
function warmServer(hooks: { readonly started: () => void; readonly gate: () => Promise<void> }): Server {
  const server = new Server({ name: 'warm', version: '1.0.0' }, { capabilities: { tools: {} } });
  const text = { type: 'object' as const, properties: { text: { type: 'string' } }, required: ['text'] };
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: ['echo', 'fail', 'slow', 'steps', 'ask', 'hurry'].map((name) => ({ name, inputSchema: text })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const said = String(request.params.arguments?.text);
    switch (request.params.name) {
      case 'echo':
        return { content: [{ type: 'text', text: `warm: ${said}` }] };
      case 'fail':
        return { content: [{ type: 'text', text: `failed: ${said}` }], isError: true };
      case 'slow':
        hooks.started();
        await Promise.race([
          hooks.gate(),
          new Promise((done) => extra.signal.addEventListener('abort', done, { once: true })),
        ]);
        return { content: [{ type: 'text', text: `slow: ${said}` }] };
      case 'steps': {
        const progressToken = extra._meta?.progressToken;
        for (let progress = 1; progress <= 3 && progressToken !== undefined; progress += 1)
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress, total: 3 },
          });
        return { content: [{ type: 'text', text: `stepped: ${said}` }] };
      }
      case 'hurry': {
        const elicited = await extra
          .sendRequest(
            {
              method: 'elicitation/create',
              params: { message: 'Quick?', requestedSchema: { type: 'object', properties: {} } },
            },
            ElicitResultSchema,
            { timeout: 200 },
          )
          .then(
            () => 'answered',
            () => 'gave up',
          );
        return { content: [{ type: 'text', text: `${elicited}: ${said}` }] };
      }
      default: {
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
      }
    }
  });
  return server;
}

async function startRecordingUpstream(): Promise<RecordingUpstream> {
  const seen: Seen[] = [];
  const waiting: { predicate: (seen: Seen) => boolean; done: (seen: Seen) => void }[] = [];
  const started: (() => void)[] = [];
  let release: () => void = () => undefined;
  let gate = new Promise<void>((done) => (release = done));
  const record = (_req: IncomingMessage, body: unknown) => {
    const message = (body ?? {}) as { method?: unknown; id?: unknown; params?: Record<string, unknown> };
    const args = message.params?.['arguments'] as { text?: unknown } | undefined;
    const entry: Seen = {
      rpc: typeof message.method === 'string' ? message.method : null,
      id: message.id,
      text: typeof args?.text === 'string' ? args.text : null,
      cancels: message.method === 'notifications/cancelled' ? message.params?.['requestId'] : undefined,
    };
    seen.push(entry);
    for (const wait of [...waiting]) {
      if (!wait.predicate(entry)) continue;
      waiting.splice(waiting.indexOf(wait), 1);
      wait.done(entry);
    }
  };
  const served: StreamableHttpUpstream = await startStreamableHttpUpstream(
    () =>
      warmServer({
        started: () => {
          for (const done of started.splice(0)) done();
        },
        gate: () => gate,
      }),
    { onRequest: record },
  );
  return {
    url: served.url,
    seen,
    calls: () => seen.filter((entry) => entry.rpc === 'tools/call').map((entry) => entry.text),
    next: (predicate) => new Promise((done) => waiting.push({ predicate, done })),
    slowStarted: () => new Promise((done) => started.push(done)),
    releaseSlow: () => {
      release();
      gate = new Promise<void>((done) => (release = done));
    },
    close: served.close,
  };
}

/** The JSON-RPC messages of an event-stream response, read as they arrive. */
class EventStream {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private buffered = '';

  constructor(response: Response) {
    if (response.body === null) throw new Error('the response has no body');
    this.reader = response.body.getReader();
  }

  /** The next message; null once the stream ended. */
  async next(): Promise<JsonRpc | null> {
    for (;;) {
      const end = this.buffered.indexOf('\n\n');
      if (end >= 0) {
        const event = this.buffered.slice(0, end);
        this.buffered = this.buffered.slice(end + 2);
        const data = event
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice('data:'.length).trimStart())
          .join('\n');
        if (data !== '') return JSON.parse(data) as JsonRpc;
        continue;
      }
      const { done, value } = await this.reader.read();
      if (done) return null;
      this.buffered += this.decoder.decode(value, { stream: true });
    }
  }

  /** Every message until the stream ends. */
  async rest(): Promise<JsonRpc[]> {
    const messages: JsonRpc[] = [];
    for (let message = await this.next(); message !== null; message = await this.next())
      messages.push(message);
    return messages;
  }
}

/** A gateway session opened by hand (initialize, then initialized), driven with raw POSTs. */
interface RawSession {
  readonly id: string;
  /** POSTs one body on the session: the headers a 2025-11-25 client sends, `headers` over them. */
  post(body: unknown, headers?: Record<string, string>): Promise<Response>;
  /** POSTs a body already written as JSON text (one too deep for this test's own JSON.stringify). */
  postText(text: string): Promise<Response>;
  /** DELETE: the session's end. */
  close(): Promise<Response>;
}

function postTo(endpoint: URL, body: unknown, headers: Record<string, string>): Promise<Response> {
  return postTextTo(endpoint, JSON.stringify(body), headers);
}

function postTextTo(endpoint: URL, text: string, headers: Record<string, string>): Promise<Response> {
  return fetch(endpoint, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${stack.tokens.agent}`,
      'content-type': 'application/json',
      accept: ACCEPT_BOTH,
      ...headers,
    },
    body: text,
  });
}

async function openSession(
  capabilities: Record<string, unknown> = {},
  endpoint: URL = gateway.endpoint(),
): Promise<RawSession> {
  const initialize = await postTo(
    endpoint,
    {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: PROTOCOL,
        capabilities,
        clientInfo: { name: 'warm-spec', version: '0.0.0' },
      },
    },
    {},
  );
  expect(initialize.status).toBe(200);
  const id = initialize.headers.get('mcp-session-id');
  if (id === null) throw new Error('initialize opened no session');
  // The transport's answer (an event stream, never the warm path's): read to its end.
  expect(await initialize.text()).toContain(`"protocolVersion":"${PROTOCOL}"`);
  const session: RawSession = {
    id,
    post: (body, headers = {}) =>
      postTo(endpoint, body, { 'mcp-session-id': id, 'mcp-protocol-version': PROTOCOL, ...headers }),
    postText: (text) =>
      postTextTo(endpoint, text, { 'mcp-session-id': id, 'mcp-protocol-version': PROTOCOL }),
    close: () =>
      fetch(endpoint, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${stack.tokens.agent}`, 'mcp-session-id': id },
      }),
  };
  const initialized = await session.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  expect(initialized.status).toBe(202);
  return session;
}

/** Runs a case on a fresh session, closed afterwards (a case that closed it itself gets a 404, ignored). */
async function withSession(
  run: (session: RawSession) => Promise<void>,
  capabilities: Record<string, unknown> = {},
  endpoint?: URL,
): Promise<void> {
  const session = await openSession(capabilities, endpoint);
  try {
    await run(session);
  } finally {
    upstream.releaseSlow();
    await (await session.close()).arrayBuffer();
  }
}

const call = (id: string | number, name: string, args: unknown, meta?: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) },
});

/** The SDK transport's answer to `message` on this session: a batch of one is never the warm path's. */
async function sdkAnswerTo(session: RawSession, message: JsonRpc): Promise<JsonRpc | null> {
  const answer = await session.post([message]);
  expect(answer.headers.get('content-type')).toBe('text/event-stream');
  const answers = await new EventStream(answer).rest();
  expect(answers).toHaveLength(1);
  return answers[0] ?? null;
}

/** A warm echo the upstream sees after anything sent before it: what it saw before is all it will have seen. */
async function fence(session: RawSession): Promise<void> {
  const answer = await session.post(call('fence', 'mcp__warm__echo', { text: 'fence' }));
  expect(await answer.json()).toMatchObject({ id: 'fence', result: { content: [{ text: 'warm: fence' }] } });
}

beforeAll(async () => {
  upstream = await startRecordingUpstream();
  stack = await startGatewayStack({ name: 'warm-tool-calls', stdioCommands: [] });
  await stack.defineServers('admin', 'managed', {
    warm: { type: 'http', url: upstream.url, elicitation: true },
  });
  await stack.approve('warm');
  await stack.discoverAndSubmit('warm');
  gateway = await stack.startGateway();
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await stack?.close();
  await upstream?.close();
}, TEST_DATABASE_TIMEOUT_MS);

beforeEach(() => {
  upstream.seen.length = 0;
});

describe('a warm tools/call', () => {
  it.each([
    ['a string id', 'call-1'],
    ['a numeric id', 42],
  ])('is answered as application/json, under %s, with what the upstream answered', async (_case, id) =>
    withSession(async (session) => {
      const answer = await session.post(call(id, 'mcp__warm__echo', { text: 'hello' }));
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/json');
      expect(answer.headers.get('mcp-session-id')).toBe(session.id);
      expect(await answer.json()).toEqual({
        jsonrpc: '2.0',
        id,
        result: { content: [{ type: 'text', text: 'warm: hello' }] },
      });
      expect(upstream.calls()).toEqual(['hello']);
    }),
  );

  it("is taken on a server's passthrough too, under the server's own tool name", async () =>
    withSession(
      async (session) => {
        const answer = await session.post(call('pass-1', 'echo', { text: 'through' }));
        expect(answer.headers.get('content-type')).toBe('application/json');
        expect(await answer.json()).toEqual({
          jsonrpc: '2.0',
          id: 'pass-1',
          result: { content: [{ type: 'text', text: 'warm: through' }] },
        });
      },
      {},
      new URL(`${gateway.endpoint().pathname}/s/warm`, gateway.url),
    ));

  it.each([
    ['a string', 'client-token-7'],
    ['a numeric', 7007],
  ])(
    'with %s progress token is an event stream: progress under the client token first, the result last',
    async (_case, progressToken) =>
      withSession(async (session) => {
        const answer = await session.post(call('p-1', 'mcp__warm__steps', { text: 'go' }, { progressToken }));
        expect(answer.status).toBe(200);
        expect(answer.headers.get('content-type')).toBe('text/event-stream');
        expect(answer.headers.get('mcp-session-id')).toBe(session.id);
        expect(await new EventStream(answer).rest()).toEqual([
          ...[1, 2, 3].map((progress) => ({
            jsonrpc: '2.0',
            method: 'notifications/progress',
            params: { progressToken, progress, total: 3 },
          })),
          { jsonrpc: '2.0', id: 'p-1', result: { content: [{ type: 'text', text: 'stepped: go' }] } },
        ]);
      }),
  );

  it("relays progress to an SDK client's onprogress, and its result", async () => {
    const client = await connectSdkClient(gateway.endpoint(), stack.tokens.agent);
    try {
      const progress: number[] = [];
      const result = await client.callTool(
        { name: 'mcp__warm__steps', arguments: { text: 'sdk' } },
        undefined,
        {
          onprogress: (step) => progress.push(step.progress),
        },
      );
      expect(result.content).toEqual([{ type: 'text', text: 'stepped: sdk' }]);
      expect(progress).toEqual([1, 2, 3]);
    } finally {
      await client.close();
    }
  });
});

describe('errors on the warm path', () => {
  it("answers an unknown tool with a JSON-RPC -32602, data.reason 'unknown_tool', as application/json, as the SDK does", async () =>
    withSession(async (session) => {
      const unknown = call(3, 'mcp__warm__nope', { text: 'x' });
      const answer = await session.post(unknown);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/json');
      const warm = await answer.json();
      expect(warm).toEqual({
        jsonrpc: '2.0',
        id: 3,
        // The SDK's wording too: the thrown error's message as it is.
        error: { code: -32602, message: 'Unknown tool', data: { reason: 'unknown_tool' } },
      });
      expect(await sdkAnswerTo(session, unknown)).toEqual(warm);
      await fence(session);
      expect(upstream.calls()).toEqual(['fence']);
    }));

  it('answers a tool error as a result with isError', async () =>
    withSession(async (session) => {
      const answer = await session.post(call(4, 'mcp__warm__fail', { text: 'x' }));
      expect(answer.headers.get('content-type')).toBe('application/json');
      expect(await answer.json()).toEqual({
        jsonrpc: '2.0',
        id: 4,
        result: { content: [{ type: 'text', text: 'failed: x' }], isError: true },
      });
    }));
});

describe('what the warm path leaves to the SDK transport', () => {
  it("answers arguments that are an array with the SDK's own refusal; the upstream is not called", async () =>
    withSession(async (session) => {
      const invalid = call(5, 'mcp__warm__echo', ['hello']);
      const answer = await session.post(invalid);
      expect(answer.status).toBe(200);
      // The transport's own framing: an event stream carrying its refusal.
      expect(answer.headers.get('content-type')).toBe('text/event-stream');
      const refused = await new EventStream(answer).rest();
      // The SDK's Server judges the params before any handler runs: -32602 with the schema's issues as the
      // message. The SDK's answer, as before this path.
      expect(refused).toEqual([
        {
          jsonrpc: '2.0',
          id: 5,
          error: {
            code: -32602,
            message: expect.stringMatching(/"arguments"[\s\S]*expected record, received array/),
          },
        },
      ]);
      expect(await sdkAnswerTo(session, invalid)).toEqual(refused[0]);
      await fence(session);
      expect(upstream.calls()).toEqual(['fence']);
    }));

  it('answers a batch of two tools/call through the SDK, one event each', async () =>
    withSession(async (session) => {
      const answer = await session.post([
        call('b-1', 'mcp__warm__echo', { text: 'one' }),
        call('b-2', 'mcp__warm__echo', { text: 'two' }),
      ]);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('text/event-stream');
      const answers = await new EventStream(answer).rest();
      expect(answers).toHaveLength(2);
      expect(answers).toEqual(
        expect.arrayContaining([
          { jsonrpc: '2.0', id: 'b-1', result: { content: [{ type: 'text', text: 'warm: one' }] } },
          { jsonrpc: '2.0', id: 'b-2', result: { content: [{ type: 'text', text: 'warm: two' }] } },
        ]),
      );
      expect([...upstream.calls()].sort()).toEqual(['one', 'two']);
    }));

  it('refuses an unknown MCP-Protocol-Version with 400; the upstream is not called', async () =>
    withSession(async (session) => {
      const answer = await session.post(call(6, 'mcp__warm__echo', { text: 'old' }), {
        'mcp-protocol-version': '1999-01-01',
      });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({
        jsonrpc: '2.0',
        error: { code: -32000, message: expect.stringContaining('Unsupported protocol version: 1999-01-01') },
      });
      await fence(session);
      expect(upstream.calls()).toEqual(['fence']);
    }));

  it('refuses an Accept of only application/json with 406; the upstream is not called', async () =>
    withSession(async (session) => {
      const answer = await session.post(call(7, 'mcp__warm__echo', { text: 'picky' }), {
        accept: 'application/json',
      });
      expect(answer.status).toBe(406);
      expect(await answer.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
      await fence(session);
      expect(upstream.calls()).toEqual(['fence']);
    }));
});

describe('a tools/call with params only the SDK judges', () => {
  // A tools/call whose params carry `task` (task augmentation, 2025-11-25) is the SDK's to judge, not this
  // path's. The gateway's Server declares no tasks, and the SDK serves such a call as a plain one, `task`
  // ignored (SDK 1.32 refused it with -32603): the answer is the call's result, on the transport's own stream.
  it('with params.task (task augmentation) is left to the SDK, which serves it as a plain call', async () =>
    withSession(async (session) => {
      const tasked = {
        jsonrpc: '2.0',
        id: 11,
        method: 'tools/call',
        params: { name: 'mcp__warm__echo', arguments: { text: 'tasked' }, task: { ttl: 60_000 } },
      };
      const answer = await session.post(tasked);
      expect(answer.headers.get('content-type')).toBe('text/event-stream');
      expect(await new EventStream(answer).rest()).toEqual([
        { jsonrpc: '2.0', id: 11, result: { content: [{ type: 'text', text: 'warm: tasked' }] } },
      ]);
      await fence(session);
      expect(upstream.calls()).toEqual(['tasked', 'fence']);
    }));

  // The same gap (failed before the fix): a related-task `_meta` key that is not the SDK's shape fails the
  // transport's JSON-RPC envelope (400, -32700, no upstream call); the warm path served it.
  it('with a malformed related-task _meta is refused by the transport (400); the upstream is not called', async () =>
    withSession(async (session) => {
      const answer = await session.post({
        jsonrpc: '2.0',
        id: 12,
        method: 'tools/call',
        params: {
          name: 'mcp__warm__echo',
          arguments: { text: 'related' },
          _meta: { 'io.modelcontextprotocol/related-task': 5 },
        },
      });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({
        jsonrpc: '2.0',
        error: { code: -32700, message: 'Parse error: Invalid JSON-RPC message' },
        id: null,
      });
      await fence(session);
      expect(upstream.calls()).toEqual(['fence']);
    }));
});

describe('cancelling a warm call', () => {
  it('takes its notifications/cancelled (202), ends its response with no answer, and cancels it upstream', async () =>
    withSession(async (session) => {
      const running = upstream.slowStarted();
      const cancelled = upstream.next((seen) => seen.rpc === 'notifications/cancelled');
      const pending = session.post(call('slow-1', 'mcp__warm__slow', { text: 'c' }));
      await running;
      const cancel = await session.post({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 'slow-1', reason: 'the user gave up' },
      });
      expect(cancel.status).toBe(202);
      expect(await cancel.text()).toBe('');
      const answer = await pending;
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('text/event-stream');
      expect(await new EventStream(answer).rest()).toEqual([]);
      // The upstream was told, naming the gateway's own request for this call.
      const upstreamCall = upstream.seen.find((seen) => seen.rpc === 'tools/call' && seen.text === 'c');
      expect((await cancelled).cancels).toBe(upstreamCall?.id);
    }));

  it('abandons a call whose client went away (its request aborted): the upstream is told', async () =>
    withSession(async (session) => {
      const running = upstream.slowStarted();
      const cancelled = upstream.next((seen) => seen.rpc === 'notifications/cancelled');
      const gone = new AbortController();
      const pending = fetch(gateway.endpoint(), {
        method: 'POST',
        signal: gone.signal,
        headers: {
          authorization: `Bearer ${stack.tokens.agent}`,
          'content-type': 'application/json',
          accept: ACCEPT_BOTH,
          'mcp-session-id': session.id,
        },
        body: JSON.stringify(call('gone-1', 'mcp__warm__slow', { text: 'g' })),
      });
      await running;
      gone.abort();
      await expect(pending).rejects.toThrow();
      const upstreamCall = upstream.seen.find((seen) => seen.rpc === 'tools/call' && seen.text === 'g');
      expect((await cancelled).cancels).toBe(upstreamCall?.id);
    }));
});

describe('elicitation on the warm path', () => {
  it('streams elicitation/create to a client that declared form elicitation; its answer (202) reaches the tool', async () =>
    withSession(
      async (session) => {
        const answer = await session.post(call(8, 'mcp__warm__ask', { text: 'x' }));
        expect(answer.status).toBe(200);
        expect(answer.headers.get('content-type')).toBe('text/event-stream');
        const stream = new EventStream(answer);
        const asked = await stream.next();
        expect(asked).toEqual({
          jsonrpc: '2.0',
          id: expect.stringMatching(/^gatehouse-elicit-\d+$/),
          method: 'elicitation/create',
          params: expect.objectContaining({ message: 'Your name, for x?' }),
        });
        const reply = await session.post({
          jsonrpc: '2.0',
          id: asked?.id,
          result: { action: 'accept', content: { name: 'Ada' } },
        });
        expect(reply.status).toBe(202);
        expect(await stream.rest()).toEqual([
          {
            jsonrpc: '2.0',
            id: 8,
            result: {
              content: [{ type: 'text', text: 'answered: {"action":"accept","content":{"name":"Ada"}}' }],
            },
          },
        ]);
      },
      { elicitation: { form: {} } },
    ));

  it('leaves an answer to an elicitation it never sent to the transport: the call waits for its own answer', async () =>
    withSession(
      async (session) => {
        const answer = await session.post(call(9, 'mcp__warm__ask', { text: 'y' }));
        const stream = new EventStream(answer);
        const asked = await stream.next();
        expect(asked).toMatchObject({ method: 'elicitation/create' });
        const stray = await session.post({
          jsonrpc: '2.0',
          id: 'gatehouse-elicit-999',
          result: { action: 'accept', content: { name: 'Mallory' } },
        });
        // The SDK transport takes any message that is not a request with 202 (and its Server drops an answer to
        // nothing it asked): the status alone cannot tell, the call's result does.
        expect(stray.status).toBe(202);
        await stray.arrayBuffer();
        const reply = await session.post({
          jsonrpc: '2.0',
          id: asked?.id,
          result: { action: 'accept', content: { name: 'Ada' } },
        });
        expect(reply.status).toBe(202);
        expect(await stream.rest()).toEqual([
          {
            jsonrpc: '2.0',
            id: 9,
            result: {
              content: [{ type: 'text', text: 'answered: {"action":"accept","content":{"name":"Ada"}}' }],
            },
          },
        ]);
      },
      { elicitation: { form: {} } },
    ));
});

/** `{"a":{"a":…1…}}`, `levels` deep, as JSON text (built as text: no recursion anywhere in the test). */
const nestedText = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

/** The upstream's `ask` result once it was given `answer` (it says what it received, as JSON). */
const answeredWith = (id: unknown, answer: unknown) => ({
  jsonrpc: '2.0',
  id,
  result: { content: [{ type: 'text', text: `answered: ${JSON.stringify(answer)}` }] },
});

describe('an elicitation answer, as the upstream receives it', () => {
  // Warm: a tools/call alone is the warm path's; a batch of one is the SDK transport's (workspace-mcp-server).
  const warm = (message: JsonRpc): unknown => message;
  const sdk = (message: JsonRpc): unknown => [message];
  it.each([
    ['the warm path', 10, warm],
    ['the SDK transport', 10, sdk],
    ['the warm path', 100_000, warm],
    ['the SDK transport', 100_000, sdk],
  ])(
    'on %s is rebuilt from action and content only: a member beside them %d levels deep never reaches it',
    async (_path, levels, wrap) =>
      withSession(
        async (session) => {
          const answer = await session.post(wrap(call('e-1', 'mcp__warm__ask', { text: 'x' })));
          const stream = new EventStream(answer);
          const asked = await stream.next();
          expect(asked).toMatchObject({ method: 'elicitation/create' });
          const reply = await session.postText(
            `{"jsonrpc":"2.0","id":${JSON.stringify(asked?.id)},"result":{"action":"accept",` +
              `"content":{"name":"Ada"},"extra":${nestedText(levels)},"_meta":{"deep":${nestedText(10)}}}}`,
          );
          expect(reply.status).toBe(202);
          expect(await stream.rest()).toEqual([
            answeredWith('e-1', { action: 'accept', content: { name: 'Ada' } }),
          ]);
        },
        { elicitation: { form: {} } },
      ),
  );

  it.each([
    ['the warm path', warm],
    ['the SDK transport', sdk],
  ])(
    'on %s is a cancel when its content is past the argument bounds (100,000 levels): the call answers',
    async (_path, wrap) =>
      withSession(
        async (session) => {
          const answer = await session.post(wrap(call('e-2', 'mcp__warm__ask', { text: 'y' })));
          const stream = new EventStream(answer);
          const asked = await stream.next();
          expect(asked).toMatchObject({ method: 'elicitation/create' });
          const reply = await session.postText(
            `{"jsonrpc":"2.0","id":${JSON.stringify(asked?.id)},"result":{"action":"accept",` +
              `"content":{"name":${nestedText(100_000)}}}}`,
          );
          expect(reply.status).toBe(202);
          expect(await stream.rest()).toEqual([answeredWith('e-2', { action: 'cancel' })]);
          // The upstream connection is whole: the next call is answered.
          await fence(session);
        },
        { elicitation: { form: {} } },
      ),
  );
});

describe('closing the session', () => {
  it('ends a warm call in flight (its response ends, the upstream is told) and the session is gone (404)', async () => {
    const session = await openSession();
    try {
      const running = upstream.slowStarted();
      const cancelled = upstream.next((seen) => seen.rpc === 'notifications/cancelled');
      const pending = session.post(call('slow-2', 'mcp__warm__slow', { text: 'd' }));
      await running;
      const closed = await session.close();
      expect(closed.status).toBe(200);
      const answer = await pending;
      expect(await new EventStream(answer).rest()).toEqual([]);
      const upstreamCall = upstream.seen.find((seen) => seen.rpc === 'tools/call' && seen.text === 'd');
      expect((await cancelled).cancels).toBe(upstreamCall?.id);
      const later = await session.post(call(10, 'mcp__warm__echo', { text: 'late' }));
      expect(later.status).toBe(404);
      expect(await later.json()).toMatchObject({ error: { code: -32001, message: 'Session not found' } });
      expect(upstream.calls()).toEqual(['d']);
    } finally {
      upstream.releaseSlow();
    }
  });
});

describe('the review of the warm path (each case failed before its fix)', () => {
  // The SDK's JSON-RPC envelope is strict: a request, a notification or an answer with a member of its own is
  // not a JSON-RPC message to it (400, -32700). The warm path took all three by their fields alone.
  it('leaves a tools/call with an envelope member of its own to the transport (400); the upstream is not called', async () =>
    withSession(async (session) => {
      const answer = await session.post({ ...call(13, 'mcp__warm__echo', { text: 'extra' }), extra: true });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({
        jsonrpc: '2.0',
        error: { code: -32700, message: 'Parse error: Invalid JSON-RPC message' },
        id: null,
      });
      await fence(session);
      expect(upstream.calls()).toEqual(['fence']);
    }));

  it('leaves a notifications/cancelled with an envelope member of its own to the transport: the call runs on', async () =>
    withSession(async (session) => {
      const running = upstream.slowStarted();
      const pending = session.post(call('slow-3', 'mcp__warm__slow', { text: 'e' }));
      await running;
      const cancel = await session.post({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 'slow-3' },
        extra: true,
      });
      expect(cancel.status).toBe(400);
      await cancel.arrayBuffer();
      upstream.releaseSlow();
      const answer = await pending;
      expect(await answer.json()).toMatchObject({ id: 'slow-3', result: { content: [{ text: 'slow: e' }] } });
    }));

  it('leaves an elicitation answer carrying both result and error to the transport (400): the call waits on', async () =>
    withSession(
      async (session) => {
        const stream = new EventStream(await session.post(call(14, 'mcp__warm__ask', { text: 'z' })));
        const asked = await stream.next();
        const both = await session.post({
          jsonrpc: '2.0',
          id: asked?.id,
          result: { action: 'accept', content: { name: 'Both' } },
          error: { code: -1, message: 'no' },
        });
        expect(both.status).toBe(400);
        await both.arrayBuffer();
        const reply = await session.post({
          jsonrpc: '2.0',
          id: asked?.id,
          result: { action: 'accept', content: { name: 'Ada' } },
        });
        expect(reply.status).toBe(202);
        expect(await stream.rest()).toEqual([
          expect.objectContaining({
            id: 14,
            result: {
              content: [{ type: 'text', text: 'answered: {"action":"accept","content":{"name":"Ada"}}' }],
            },
          }),
        ]);
      },
      { elicitation: { form: {} } },
    ));

  // The transport's event stream says no-transform and X-Accel-Buffering: no, so a proxy (nginx) passes each
  // progress on as it comes instead of buffering the stream until it ends.
  it("streams with the transport's own event-stream headers", async () =>
    withSession(async (session) => {
      const sdk = await session.post([call('h-1', 'mcp__warm__echo', { text: 'sdk' })]);
      await sdk.arrayBuffer();
      const warm = await session.post(
        call('h-2', 'mcp__warm__steps', { text: 'warm' }, { progressToken: 'h' }),
      );
      await warm.arrayBuffer();
      for (const header of ['content-type', 'cache-control', 'x-accel-buffering', 'mcp-session-id'])
        expect([header, warm.headers.get(header)]).toEqual([header, sdk.headers.get(header)]);
    }));

  // The SDK's Protocol tells the client when a request it sent is given up (the upstream cancelled it, or its
  // timeout): notifications/cancelled on the call's stream, so the client drops its prompt. The path did not.
  it('tells the client an elicitation the upstream gave up is cancelled, before the call answers', async () =>
    withSession(
      async (session) => {
        const answer = await session.post(call(15, 'mcp__warm__hurry', { text: 'q' }));
        const messages = await new EventStream(answer).rest();
        const asked = messages[0];
        expect(asked).toMatchObject({ method: 'elicitation/create' });
        expect(messages.slice(1)).toEqual([
          {
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId: asked?.id, reason: expect.any(String) },
          },
          { jsonrpc: '2.0', id: 15, result: { content: [{ type: 'text', text: 'gave up: q' }] } },
        ]);
      },
      { elicitation: { form: {} } },
    ));

  // Checked in review, holding: kept as guards.
  it("does not let one session's client cancel another session's call of the same token", async () =>
    withSession(async (owner) =>
      withSession(async (other) => {
        const running = upstream.slowStarted();
        const pending = owner.post(call('mine-1', 'mcp__warm__slow', { text: 'm' }));
        await running;
        const cancel = await other.post({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: 'mine-1' },
        });
        // The transport's 202 for any notification: the call's answer tells.
        expect(cancel.status).toBe(202);
        await cancel.arrayBuffer();
        upstream.releaseSlow();
        expect(await (await pending).json()).toMatchObject({
          id: 'mine-1',
          result: { content: [{ text: 'slow: m' }] },
        });
      }),
    ));

  it('refuses __proto__ keys in params, arguments or _meta with 400 malformed_json; the upstream is not called', async () =>
    withSession(async (session) => {
      for (const body of [
        '{"jsonrpc":"2.0","id":16,"method":"tools/call","params":{"name":"mcp__warm__echo","arguments":{"text":"p","__proto__":{"x":1}}}}',
        '{"jsonrpc":"2.0","id":17,"method":"tools/call","params":{"name":"mcp__warm__echo","__proto__":{"task":{}},"arguments":{"text":"p"}}}',
        '{"jsonrpc":"2.0","id":18,"method":"tools/call","params":{"name":"mcp__warm__echo","arguments":{"text":"p"},"_meta":{"__proto__":{"progressToken":"t"}}}}',
      ]) {
        const answer = await fetch(gateway.endpoint(), {
          method: 'POST',
          headers: {
            authorization: `Bearer ${stack.tokens.agent}`,
            'content-type': 'application/json',
            accept: ACCEPT_BOTH,
            'mcp-session-id': session.id,
            'mcp-protocol-version': PROTOCOL,
          },
          body,
        });
        // The endpoint's JSON parser refuses a prototype key outright: the path never sees one.
        expect(answer.status).toBe(400);
        expect(await answer.json()).toMatchObject({ code: 'malformed_json' });
      }
      await fence(session);
      expect(
        upstream
          .calls()
          .filter((said) => said !== 'fence')
          .every((said) => said === 'p'),
      ).toBe(true);
      expect(({} as Record<string, unknown>)['x']).toBeUndefined();
    }));
});
