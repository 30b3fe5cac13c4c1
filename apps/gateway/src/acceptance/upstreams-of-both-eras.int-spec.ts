import { serveFetchHandler } from '@gatehouse/platform';
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
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ElicitRequestSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { acceptedContent, createMcpHandler, inputRequired, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  connectSdkClient,
  EVERYTHING,
  startGatewayStack,
  type GatewayStack,
  type StartedGateway,
} from './gateway-stack.harness';

// Upstreams of either protocol era behind one gateway (docs/architecture/gateway.md, decisions 0143 and 0144): a
// 2026-07-28-only server (SDK v2, `legacy: 'reject'`), a dual-era one (SDK v2's default), a 2025-only one (SDK
// 1.32) and server-everything over stdio, each discovered and called through the workspace endpoint by a 2025
// session (SDK 1.32's client) and a 2026 client (SDK v2 pinned to 2026-07-28). And the bridge the other way: a
// 2025 client whose call reaches a 2026 upstream that answers `input_required` is asked with elicitation/create on
// its session, and the call completes with its answer; from a 2026 client the same question comes back as the
// gateway's own input_required round.

jest.setTimeout(180_000);

let stack: GatewayStack;
let gateway: StartedGateway;
const closers: (() => Promise<void>)[] = [];

function modernServer(name: string): McpServer {
  const server = new McpServer({ name, version: '2.0.0' });
  server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: 'text', text: `${name}: ${text}` }],
  }));
  server.registerTool('confirm', { inputSchema: z.object({}) }, (_args, ctx) => {
    const answer = acceptedContent(ctx.mcpReq.inputResponses, 'confirm');
    if (answer === undefined)
      return inputRequired({
        inputRequests: {
          confirm: inputRequired.elicit({
            message: 'Go ahead?',
            requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
          }),
        },
      });
    return { content: [{ type: 'text', text: `confirmed: ${String(answer['ok'])}` }] };
  });
  return server;
}

async function servedModern(name: string, legacy: 'reject' | 'stateless'): Promise<string> {
  const handler = createMcpHandler(() => modernServer(name), { legacy });
  const served = await serveFetchHandler((request, options) => handler.fetch(request, options));
  closers.push(served.close, handler.close);
  return served.url;
}

function legacyServer(): Server {
  const server = new Server({ name: 'old', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      {
        name: 'echo',
        inputSchema: { type: 'object' as const, properties: { text: { type: 'string' } } },
      },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => ({
    content: [{ type: 'text', text: `old: ${String(request.params.arguments?.['text'])}` }],
  }));
  return server;
}

async function modernClient(
  elicits: boolean,
  fetchThrough: FetchLike = (url, init) => fetch(url, init),
): Promise<V2Client> {
  const client = new V2Client(
    { name: 'modern-caller', version: '0.0.0' },
    {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      ...(elicits ? { capabilities: { elicitation: { form: {} } } } : {}),
    },
  );
  if (elicits)
    client.setRequestHandler('elicitation/create', async () => ({
      action: 'accept' as const,
      content: { ok: true },
    }));
  await client.connect(
    new V2Transport(gateway.endpoint(), {
      requestInit: { headers: { authorization: `Bearer ${stack.tokens.agent}` } },
      fetch: fetchThrough,
    }),
  );
  return client;
}

/** The text of a tool result, whichever SDK's client read it. */
const textOf = (result: unknown) =>
  ((result as { content?: { text?: string }[] }).content ?? []).map((part) => part.text ?? '').join('');

let old: StreamableHttpUpstream;

beforeAll(async () => {
  stack = await startGatewayStack({ name: 'upstreams-of-both-eras', stdioCommands: [[EVERYTHING, 'stdio']] });
  old = await startStreamableHttpUpstream(legacyServer);
  await stack.defineServers('admin', 'managed', {
    strict: { type: 'http', url: await servedModern('strict', 'reject'), elicitation: true },
    dual: { type: 'http', url: await servedModern('dual', 'stateless'), elicitation: true },
    old: { type: 'http', url: old.url },
    everything: { type: 'stdio', command: EVERYTHING, args: ['stdio'] },
  });
  for (const server of ['strict', 'dual', 'old', 'everything']) {
    await stack.approve(server);
    await stack.discoverAndSubmit(server);
  }
  gateway = await stack.startGateway();
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await stack?.close();
  await old?.close();
  for (const close of closers.reverse()) await close().catch(() => undefined);
}, TEST_DATABASE_TIMEOUT_MS);

describe('upstreams of either era, called by clients of either era', () => {
  const calls = [
    ['mcp__strict__echo', { text: 'a' }, 'strict: a'],
    ['mcp__dual__echo', { text: 'b' }, 'dual: b'],
    ['mcp__old__echo', { text: 'c' }, 'old: c'],
    ['mcp__everything__echo', { message: 'd' }, 'd'],
  ] as const;

  it('a 2025 session lists and calls every upstream', async () => {
    const client = await connectSdkClient(gateway.endpoint(), stack.tokens.agent);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      for (const [name, args, expected] of calls) {
        expect(names).toContain(name);
        expect(textOf(await client.callTool({ name, arguments: { ...args } }))).toContain(expected);
      }
    } finally {
      await client.close();
    }
  });

  it('a 2026 client lists and calls every upstream', async () => {
    const client = await modernClient(false);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      for (const [name, args, expected] of calls) {
        expect(names).toContain(name);
        expect(textOf(await client.callTool({ name, arguments: { ...args } }))).toContain(expected);
      }
    } finally {
      await client.close();
    }
  });
});

describe("a 2026 upstream's input_required", () => {
  it('reaches a 2025 session that declared elicitation as elicitation/create, and the call completes', async () => {
    const asked: string[] = [];
    const client = new LegacyClient(
      { name: 'legacy-caller', version: '0.0.0' },
      { capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { ok: true } };
    });
    await client.connect(
      new LegacyTransport(gateway.endpoint(), {
        requestInit: { headers: { authorization: `Bearer ${stack.tokens.agent}` } },
      }),
    );
    try {
      const result = await client.callTool({ name: 'mcp__strict__confirm', arguments: {} });
      expect(textOf(result)).toBe('confirmed: true');
      expect(asked).toEqual(['Go ahead?']);
    } finally {
      await client.close();
    }
  });

  it('reaches a 2026 client as the gateway’s own input_required round', async () => {
    const client = await modernClient(true);
    try {
      const result = await client.callTool({ name: 'mcp__strict__confirm', arguments: {} });
      expect(textOf(result)).toBe('confirmed: true');
    } finally {
      await client.close();
    }
  });

  // The upstream is fine: the caller cannot be asked. Either era's client is told which capability it lacks
  // (-32021, MissingRequiredClientCapability), never the upstream's question, and never that the upstream is down.
  const missingElicitation = {
    code: -32021,
    data: { reason: 'elicitation_unsupported', requiredCapabilities: { elicitation: {} } },
  };

  it('fails a 2026 client that declared no elicitation with the missing capability, content-free', async () => {
    // What was on the wire: the SDK's client keeps only the spec's part of -32021's data (requiredCapabilities).
    const answers: { status: number; body: string }[] = [];
    const client = await modernClient(false, async (url, init) => {
      const response = await fetch(url, init);
      answers.push({ status: response.status, body: await response.clone().text() });
      return response;
    });
    try {
      const error = await refusalOf(client.callTool({ name: 'mcp__strict__confirm', arguments: {} }));
      expect(error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
      const refusal = answers.at(-1);
      expect(refusal?.status).toBe(400);
      expect(JSON.parse(refusal?.body ?? '{}')).toMatchObject({ error: missingElicitation });
      expect(refusal?.body).not.toContain('Go ahead?');
      expect(JSON.stringify(error)).not.toContain('Go ahead?');
    } finally {
      await client.close();
    }
  });

  it('fails a 2025 session that declared no elicitation with the missing capability, content-free', async () => {
    const client = new LegacyClient({ name: 'legacy-caller', version: '0.0.0' });
    await client.connect(
      new LegacyTransport(gateway.endpoint(), {
        requestInit: { headers: { authorization: `Bearer ${stack.tokens.agent}` } },
      }),
    );
    try {
      const error = await refusalOf(client.callTool({ name: 'mcp__strict__confirm', arguments: {} }));
      expect(error).toMatchObject(missingElicitation);
      expect(JSON.stringify(error)).not.toContain('Go ahead?');
    } finally {
      await client.close();
    }
  });
});

/** The JSON-RPC error a call was refused with, whichever SDK's client read it (a result fails the test). */
async function refusalOf(
  call: Promise<unknown>,
): Promise<{ code: unknown; message: unknown; data: unknown }> {
  const error: unknown = await call.then(
    (result) => {
      throw new Error(`expected a refusal, got ${JSON.stringify(result)}`);
    },
    (refused: unknown) => refused,
  );
  const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
  return { code, message, data };
}
