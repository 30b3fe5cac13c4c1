import { serveFetchHandler, type ServedFetchHandler } from '@gatehouse/platform';
import { TEST_DATABASE_TIMEOUT_MS } from '@gatehouse/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { acceptedContent, createMcpHandler, inputRequired, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  startGatewayStack,
  type GatewayStack,
  type StartedGateway,
} from '../acceptance/gateway-stack.harness';

// A 2026-07-28-only upstream (the v2 SDK's createMcpHandler, legacy: 'reject') behind the gateway, and 2025-era
// clients in front (decision 0143). Discovery reaches it on the 2026 era and the snapshot says so; a call whose
// upstream answers input_required (an elicitation inside the result) reaches the calling session as the
// `elicitation/create` a 2025 client knows, and the call completes with its answer; a session that did not
// declare elicitation gets a failed call, with nothing of the upstream's question.

jest.setTimeout(180_000);

let stack: GatewayStack;
let gateway: StartedGateway;
let upstream: ServedFetchHandler;
let handler: ReturnType<typeof createMcpHandler>;

function confirmingServer(): McpServer {
  const server = new McpServer({ name: 'modern-upstream', version: '2.0.0' });
  server.registerTool('confirm', { inputSchema: z.object({}) }, (_args, ctx) => {
    const answer = acceptedContent(ctx.mcpReq.inputResponses, 'confirm');
    if (answer === undefined) {
      return inputRequired({
        inputRequests: {
          confirm: inputRequired.elicit({
            message: 'Deploy the secret plan?',
            requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
          }),
        },
      });
    }
    return { content: [{ type: 'text', text: `confirmed: ${String(answer['ok'])}` }] };
  });
  return server;
}

/** The v2 handler on a loopback port: Node's request and response bridged to the web ones it speaks. */
async function serveModern(): Promise<string> {
  handler = createMcpHandler(() => confirmingServer(), { legacy: 'reject' });
  upstream = await serveFetchHandler((request, options) => handler.fetch(request, options));
  return upstream.url;
}

/** A 2025-era gateway session, declaring form elicitation (answering every question with ok) or not. */
async function session(elicitation: boolean): Promise<{ client: Client; asked: string[] }> {
  const transport = new StreamableHTTPClientTransport(gateway.endpoint(), {
    requestInit: { headers: { authorization: `Bearer ${stack.tokens.agent}` } },
  });
  const client = new Client(
    { name: 'modern-upstream-elicitation', version: '0.0.0' },
    { capabilities: elicitation ? { elicitation: { form: {} } } : {} },
  );
  const asked: string[] = [];
  if (elicitation) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { ok: true } };
    });
  }
  await client.connect(transport);
  return { client, asked };
}

let discoveredIdentity: unknown;

beforeAll(async () => {
  const url = await serveModern();
  stack = await startGatewayStack({ name: 'modern-upstream-elicitation', stdioCommands: [] });
  await stack.defineServers('admin', 'managed', { modern: { type: 'http', url, elicitation: true } });
  await stack.approve('modern');
  discoveredIdentity = (await stack.discoverAndSubmit('modern')).servers[0]?.identity;
  gateway = await stack.startGateway();
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await stack?.close();
  await handler?.close();
  await upstream?.close();
}, TEST_DATABASE_TIMEOUT_MS);

describe('a 2026-07-28-only upstream behind the gateway', () => {
  it('is discovered on the 2026 era, and the snapshot records it', () => {
    expect(discoveredIdentity).toMatchObject({ protocolEra: 'modern', protocolVersion: '2026-07-28' });
  });

  it("relays its input_required to a 2025 session that declared elicitation, and returns the call's result", async () => {
    const { client, asked } = await session(true);
    try {
      const result = await client.callTool({ name: 'mcp__modern__confirm', arguments: {} });
      expect(asked).toEqual(['Deploy the secret plan?']);
      expect(result.content).toEqual([{ type: 'text', text: 'confirmed: true' }]);
    } finally {
      await client.close();
    }
  });

  it('fails the call of a session that did not declare elicitation, with nothing of the question', async () => {
    const { client } = await session(false);
    try {
      const failed = await client.callTool({ name: 'mcp__modern__confirm', arguments: {} }).then(
        () => null,
        (error: unknown) => error as { code?: unknown; data?: unknown; message: string },
      );
      // The capability the call needed and the session did not declare (decision 0146), naming nothing else.
      expect(failed).toMatchObject({
        code: -32021,
        data: { reason: 'elicitation_unsupported', requiredCapabilities: { elicitation: {} } },
      });
      expect(JSON.stringify({ ...failed, message: failed?.message })).not.toContain('secret plan');
    } finally {
      await client.close();
    }
  });
});
