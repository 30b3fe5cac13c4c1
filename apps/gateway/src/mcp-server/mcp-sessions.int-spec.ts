import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { GatewayCaller } from '../callers/caller.js';
import { McpSessions } from './mcp-sessions.js';

// The session layer alone, through a real SDK client over a loopback socket: the caller of each request is
// whoever the `x-test-token` header names (standing in for the endpoint's authentication). A session serves only
// the token and workspace that opened it; an idle one is swept; a sessionless request is served statelessly.

const WORKSPACE = '2d8e3f4a-5b6c-4d7e-9f8a-0b1c2d3e4f5a';

function callerFor(tokenId: string): GatewayCaller {
  return {
    tokenId,
    tenantId: '1c7d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
    kind: 'agent',
    userId: null,
    workspaceId: WORKSPACE,
    expiresAt: null,
  };
}

function readBody(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () =>
      resolve(chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'))),
    );
  });
}

describe('McpSessions', () => {
  let now = 0;
  let sessions: McpSessions;
  let http: HttpServer;
  let url: URL;

  beforeAll(async () => {
    sessions = new McpSessions({
      createServer: () => {
        const server = new Server({ name: 'sessions-test', version: '0' }, { capabilities: { tools: {} } });
        server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }));
        return { server };
      },
      idleCloseMs: 60_000,
      now: () => now,
    });
    http = createServer((request, response) => {
      void readBody(request).then((body) =>
        sessions.handle(request, response, body, callerFor(String(request.headers['x-test-token']))),
      );
    });
    await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
    url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp/w/${WORKSPACE}`);
  });

  afterAll(async () => {
    await sessions.close();
    http.closeAllConnections();
    await new Promise<void>((done) => http.close(() => done()));
  });

  async function connect(
    token: string,
  ): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
    const transport = new StreamableHTTPClientTransport(url, {
      requestInit: { headers: { 'x-test-token': token } },
    });
    const client = new Client({ name: 'sessions-test', version: '0' });
    await client.connect(transport);
    return { client, transport };
  }

  it('serves a session only for the token that opened it', async () => {
    const { client, transport } = await connect('token-a');
    try {
      expect(sessions.size).toBe(1);
      await expect(client.listTools()).resolves.toEqual({ tools: [] });
      const foreign = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': transport.sessionId ?? '',
          'mcp-protocol-version': '2025-11-25',
          'x-test-token': 'token-b',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} }),
      });
      expect(foreign.status).toBe(404);
      expect(await foreign.json()).toMatchObject({ error: { message: 'Session not found' } });
    } finally {
      await client.close();
    }
  });

  it('closes a session idle past the bound; its client is told the session is gone', async () => {
    const { client } = await connect('token-c');
    try {
      const before = sessions.size;
      now += 60_000;
      await sessions.sweep();
      expect(sessions.size).toBeLessThan(before);
      await expect(client.listTools()).rejects.toThrow(/404|Session not found/);
    } finally {
      await client.close();
    }
  });

  it('serves a POST without a session statelessly, on any replica', async () => {
    const before = sessions.size;
    const answer = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-test-token': 'token-d',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('"tools":[]');
    expect(sessions.size).toBe(before);
  });

  it('answers a sessionless request as JSON, and as an event stream only when it asked for progress', async () => {
    const post = (params: Record<string, unknown>) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'x-test-token': 'token-e',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params }),
      });
    // Nothing can come before its answer (no progress asked, no session to send anything else on): plain JSON.
    const plain = await post({});
    expect(plain.headers.get('content-type')).toContain('application/json');
    expect(await plain.json()).toEqual({ jsonrpc: '2.0', id: 2, result: { tools: [] } });
    // A progress token: its progress goes on the answer's own stream, before the result.
    const streamed = await post({ _meta: { progressToken: 'p1' } });
    expect(streamed.headers.get('content-type')).toContain('text/event-stream');
    expect(await streamed.text()).toContain('"tools":[]');
  });
});
