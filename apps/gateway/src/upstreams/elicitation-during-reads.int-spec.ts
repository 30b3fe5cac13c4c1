import {
  startStreamableHttpUpstream,
  TEST_DATABASE_TIMEOUT_MS,
  type StreamableHttpUpstream,
} from '@gatehouse/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ElicitRequestSchema,
  ElicitResultSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  startGatewayStack,
  type GatewayStack,
  type StartedGateway,
} from '../acceptance/gateway-stack.harness';

// Decision 0107 says an upstream's elicitation/create reaches a session only while every request in flight on the
// upstream connection is that session's. A prompts/get or resources/read is in flight on the connection too: an
// elicitation the server sends during another session's read, while one session's tool call runs, must not be
// relayed to the session whose call happens to be running (that session would be shown, and answer, a form
// meant for the other). Real API, gateway and SDK clients; one in-process upstream that opted in to elicitation,
// whose `slow` tool holds until released and whose prompt and resource each ask the end user while being read.
// Both sessions use the workspace's agent token, so they share one upstream connection (no principal).

jest.setTimeout(180_000);

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

let stack: GatewayStack;
let gateway: StartedGateway;
let upstream: StreamableHttpUpstream;
let release: () => void = () => undefined;
let gate = new Promise<void>((done) => (release = done));
const started: (() => void)[] = [];

/** Asks the end user mid-request and says what came back, or how it was refused. */
async function ask(extra: Extra, what: string): Promise<string> {
  try {
    const answer = await extra.sendRequest(
      {
        method: 'elicitation/create',
        params: {
          message: `Confirm ${what}?`,
          requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
        },
      },
      ElicitResultSchema,
    );
    return `answered: ${answer.action}`;
  } catch (error) {
    const reason = ((error as McpError).data as { reason?: string } | undefined)?.reason ?? '';
    return `refused: ${reason}`;
  }
}

function askingServer(): Server {
  const server = new Server(
    { name: 'asker', version: '1.0.0' },
    { capabilities: { tools: {}, prompts: {}, resources: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: 'slow', inputSchema: { type: 'object' } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (_request, extra) => {
    for (const done of started.splice(0)) done();
    await Promise.race([gate, new Promise((done) => extra.signal.addEventListener('abort', done))]);
    return { content: [{ type: 'text', text: 'slow done' }] };
  });
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: [{ name: 'confirm' }] }));
  server.setRequestHandler(GetPromptRequestSchema, async (_request, extra) => ({
    messages: [{ role: 'user', content: { type: 'text', text: await ask(extra, 'the prompt') } }],
  }));
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [{ uri: 'asker://form', name: 'form' }],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => ({
    contents: [{ uri: request.params.uri, text: await ask(extra, 'the resource') }],
  }));
  return server;
}

interface Session {
  readonly client: Client;
  readonly asked: string[];
}

/** A gateway session that declares form elicitation and records what it is asked (it always accepts). */
async function elicitingSession(): Promise<Session> {
  const transport = new StreamableHTTPClientTransport(gateway.endpoint(), {
    requestInit: { headers: { authorization: `Bearer ${stack.tokens.agent}` } },
  });
  const client = new Client(
    { name: 'elicitation-during-reads', version: '0.0.0' },
    { capabilities: { elicitation: { form: {} } } },
  );
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return { action: 'accept', content: { ok: true } };
  });
  await client.connect(transport);
  return { client, asked };
}

beforeAll(async () => {
  upstream = await startStreamableHttpUpstream(askingServer);
  stack = await startGatewayStack({ name: 'elicitation-during-reads', stdioCommands: [] });
  await stack.defineServers('admin', 'managed', {
    asker: { type: 'http', url: upstream.url, elicitation: true },
  });
  await stack.approve('asker');
  await stack.discoverAndSubmit('asker');
  gateway = await stack.startGateway();
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await stack?.close();
  await upstream?.close();
}, TEST_DATABASE_TIMEOUT_MS);

/** Runs `read` from session B while session A's `slow` call is in flight on the same upstream connection. */
async function duringAnotherSessionsCall<T>(read: (b: Session) => Promise<T>) {
  const a = await elicitingSession();
  const b = await elicitingSession();
  try {
    const running = new Promise<void>((done) => started.push(done));
    const slow = a.client.callTool({ name: 'mcp__asker__slow', arguments: {} });
    await running;
    const answer = await read(b);
    release();
    await slow;
    return { answer, aAsked: [...a.asked], bAsked: [...b.asked] };
  } finally {
    release();
    gate = new Promise<void>((done) => (release = done));
    await Promise.all([a.client.close(), b.client.close()]);
  }
}

describe("an upstream's elicitation during a read", () => {
  it('is not relayed to another session whose tool call is in flight (prompts/get)', async () => {
    const probe = await elicitingSession();
    const prompt = (await probe.client.listPrompts()).prompts[0]?.name;
    await probe.client.close();
    expect(prompt).toBeDefined();

    const { answer, aAsked, bAsked } = await duringAnotherSessionsCall((b) =>
      b.client.getPrompt({ name: prompt as string }),
    );
    expect(aAsked).toEqual([]);
    expect(bAsked).toEqual([]);
    expect(answer.messages[0]?.content).toEqual({ type: 'text', text: 'refused: elicitation_ambiguous' });
  });

  it('is not relayed to another session whose tool call is in flight (resources/read)', async () => {
    const probe = await elicitingSession();
    const uri = (await probe.client.listResources()).resources[0]?.uri;
    await probe.client.close();
    expect(uri).toBeDefined();

    const { answer, aAsked, bAsked } = await duringAnotherSessionsCall((b) =>
      b.client.readResource({ uri: uri as string }),
    );
    expect(aAsked).toEqual([]);
    expect(bAsked).toEqual([]);
    expect(answer.contents[0]).toMatchObject({ text: 'refused: elicitation_ambiguous' });
  });

  it('is refused as outside a call when nothing else is in flight', async () => {
    const b = await elicitingSession();
    try {
      const prompt = (await b.client.listPrompts()).prompts[0]?.name as string;
      const answer = await b.client.getPrompt({ name: prompt });
      expect(answer.messages[0]?.content).toEqual({
        type: 'text',
        text: 'refused: elicitation_outside_call',
      });
      expect(b.asked).toEqual([]);
    } finally {
      await b.client.close();
    }
  });
});
