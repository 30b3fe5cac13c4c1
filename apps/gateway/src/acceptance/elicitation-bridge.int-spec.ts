import {
  startStreamableHttpUpstream,
  TEST_DATABASE_TIMEOUT_MS,
  type StreamableHttpUpstream,
} from '@gatehouse/testing';
import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2Transport,
  type FetchLike,
} from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ElicitResultSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { startGatewayStack, type GatewayStack, type StartedGateway } from './gateway-stack.harness';

// The bridge between the eras (docs/architecture/gateway.md, decision 0144): a 2026-07-28 client calls a tool on a
// 2025 upstream that asks its user mid-call (elicitation/create). The client gets `input_required` rounds and
// answers by retrying, on any replica; the state it carries is signed, bound to the caller, single-use. The client
// is the v2 SDK's own (its input_required loop answers through its registered elicitation handler).

jest.setTimeout(120_000);

let stack: GatewayStack;
let upstream: StreamableHttpUpstream;
let first: StartedGateway;
let second: StartedGateway;
/** How many times the upstream's tools ran (a round re-runs the call from the start). */
let runs = 0;

const schema = (property: string) => ({
  type: 'object' as const,
  properties: { [property]: { type: 'string' as const } },
  required: [property],
});

function askingServer(): Server {
  const server = new Server({ name: 'asker', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      { name: 'greet', description: 'Asks a name', inputSchema: { type: 'object' as const } },
      { name: 'two', description: 'Asks a name, then a city', inputSchema: { type: 'object' as const } },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    runs += 1;
    const ask = async (message: string, property: string) =>
      extra.sendRequest(
        { method: 'elicitation/create', params: { message, requestedSchema: schema(property) } },
        ElicitResultSchema,
      );
    const name = await ask('Your name?', 'name');
    if (request.params.name === 'greet')
      return {
        content: [{ type: 'text', text: `hello ${String(name.content?.['name'])} (${name.action})` }],
      };
    const city = await ask('Your city?', 'city');
    return {
      content: [
        { type: 'text', text: `${String(name.content?.['name'])} of ${String(city.content?.['city'])}` },
      ],
    };
  });
  return server;
}

/** The v2 client pinned to 2026-07-28, answering elicitations; `fetch` sees (and may change) every POST. */
async function modernClient(
  endpoint: URL,
  token: string,
  fetchThrough: FetchLike = (url, init) => fetch(url, init),
): Promise<{ client: V2Client; asked: string[] }> {
  const client = new V2Client(
    { name: 'bridge-client', version: '0.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const asked: string[] = [];
  client.setRequestHandler('elicitation/create', async (request) => {
    const message = String(request.params.message);
    asked.push(message);
    const content: Record<string, string> = message === 'Your name?' ? { name: 'Ada' } : { city: 'London' };
    return { action: 'accept' as const, content };
  });
  await client.connect(
    new V2Transport(endpoint, {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
      fetch: fetchThrough,
    }),
  );
  return { client, asked };
}

/** The JSON-RPC body of a POST, when it is one. */
function bodyOf(init: RequestInit | undefined): { params?: { requestState?: string } } | undefined {
  return typeof init?.body === 'string'
    ? (JSON.parse(init.body) as { params?: { requestState?: string } })
    : undefined;
}

beforeAll(async () => {
  stack = await startGatewayStack({ name: 'elicitation-bridge', stdioCommands: [] });
  upstream = await startStreamableHttpUpstream(askingServer);
  await stack.defineServers('admin', 'managed', {
    asker: { type: 'http', url: upstream.url, elicitation: true },
  });
  await stack.approve('asker');
  await stack.discoverAndSubmit('asker');
  first = await stack.startGateway();
  second = await stack.startGateway();
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await stack?.close();
  await upstream?.close();
}, TEST_DATABASE_TIMEOUT_MS);

describe('a 2026 client, a 2025 upstream that elicits', () => {
  it('gets input_required, answers, and the retry resumes the call', async () => {
    const { client, asked } = await modernClient(first.endpoint(), stack.tokens.agent);
    try {
      runs = 0;
      const result = await client.callTool({ name: 'mcp__asker__greet', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'hello Ada (accept)' }]);
      expect(asked).toEqual(['Your name?']);
      // One round asked, one retry answered: the upstream ran the call twice.
      expect(runs).toBe(2);
    } finally {
      await client.close();
    }
  });

  it('two questions are two rounds; each answer is given to its own question', async () => {
    const { client, asked } = await modernClient(first.endpoint(), stack.tokens.agent);
    try {
      const result = await client.callTool({ name: 'mcp__asker__two', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'Ada of London' }]);
      expect(asked).toEqual(['Your name?', 'Your city?']);
    } finally {
      await client.close();
    }
  });

  it('the retry may land on another replica', async () => {
    const served: string[] = [];
    const { client } = await modernClient(first.endpoint(), stack.tokens.agent, async (url, init) => {
      // Every retry that carries a requestState goes to the second gateway.
      const retry = bodyOf(init)?.params?.requestState !== undefined;
      const target = retry ? new URL(String(url).replace(first.url, second.url)) : url;
      served.push(retry ? 'second' : 'first');
      return fetch(target, init);
    });
    try {
      const result = await client.callTool({ name: 'mcp__asker__greet', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'hello Ada (accept)' }]);
      expect(served).toContain('second');
    } finally {
      await client.close();
    }
  });

  it.each([
    ['forged', (state: string) => `${state.slice(0, -2)}AA`],
    ['not ours at all', () => 'v1.e30.AAAA'],
  ])('a %s requestState is refused', async (_label, forge) => {
    const { client } = await modernClient(first.endpoint(), stack.tokens.agent, async (url, init) => {
      const body = bodyOf(init);
      const state = body?.params?.requestState;
      if (state === undefined || body?.params === undefined) return fetch(url, init);
      body.params.requestState = forge(state);
      return fetch(url, { ...init, body: JSON.stringify(body) });
    });
    try {
      const refused = client.callTool({ name: 'mcp__asker__greet', arguments: {} });
      await expect(refused).rejects.toMatchObject({ code: -32602 });
      await expect(refused).rejects.toThrow('Invalid or expired requestState');
    } finally {
      await client.close();
    }
  });

  it("another caller's requestState is refused", async () => {
    const { client } = await modernClient(first.endpoint(), stack.tokens.agent, async (url, init) => {
      if (bodyOf(init)?.params?.requestState === undefined) return fetch(url, init);
      // The same retry, sent with another member's token of the same workspace.
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${stack.tokens.alice}`);
      return fetch(url, { ...init, headers });
    });
    try {
      const refused = client.callTool({ name: 'mcp__asker__greet', arguments: {} });
      await expect(refused).rejects.toMatchObject({ code: -32602 });
      await expect(refused).rejects.toThrow('Invalid or expired requestState');
    } finally {
      await client.close();
    }
  });

  it('a replayed requestState is refused, on either replica', async () => {
    let retry: { url: string; init: RequestInit } | undefined;
    const { client } = await modernClient(first.endpoint(), stack.tokens.agent, async (url, init) => {
      if (bodyOf(init)?.params?.requestState !== undefined) retry = { url: String(url), init: { ...init } };
      return fetch(url, init);
    });
    try {
      await client.callTool({ name: 'mcp__asker__greet', arguments: {} });
      expect(retry).toBeDefined();
      for (const url of [retry!.url, retry!.url.replace(first.url, second.url)]) {
        const again = await fetch(url, retry!.init);
        const text = await again.text();
        expect(text).toContain('-32602');
        expect(text).toContain('Invalid or expired requestState');
      }
    } finally {
      await client.close();
    }
  });

  it('a client that declared no elicitation is not asked: the upstream is refused, content-free', async () => {
    const client = new V2Client(
      { name: 'no-elicitation', version: '0.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(
      new V2Transport(first.endpoint(), {
        requestInit: { headers: { authorization: `Bearer ${stack.tokens.agent}` } },
      }),
    );
    try {
      const outcome = await client.callTool({ name: 'mcp__asker__greet', arguments: {} }).then(
        (result) => JSON.stringify(result),
        (error: unknown) => String(error),
      );
      expect(outcome).not.toContain('Your name?');
      expect(outcome).not.toContain('Ada');
    } finally {
      await client.close();
    }
  });
});
