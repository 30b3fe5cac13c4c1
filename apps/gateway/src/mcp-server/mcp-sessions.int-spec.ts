import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/server';
import type { GatewayCaller } from '../callers/caller.js';
import { McpSessions, type McpSessionsOptions } from './mcp-sessions.js';
import type { ToolCallHandler } from './tool-call-handler.js';

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

interface Served {
  readonly sessions: McpSessions;
  readonly url: URL;
  readonly close: () => Promise<void>;
}

/** The session layer behind a loopback HTTP server; the caller is whoever `x-test-token` names. */
async function serveSessions(
  options: Omit<McpSessionsOptions, 'createServer'>,
  callTool?: ToolCallHandler,
): Promise<Served> {
  const sessions = new McpSessions({
    createServer: () => {
      const server = new Server({ name: 'sessions-test', version: '0' }, { capabilities: { tools: {} } });
      server.setRequestHandler('tools/list', async () => ({ tools: [] }));
      return callTool === undefined ? { server } : { server, callTool };
    },
    ...options,
  });
  const http: HttpServer = createServer((request, response) => {
    void readBody(request).then((body) =>
      sessions.handle(request, response, body, callerFor(String(request.headers['x-test-token']))),
    );
  });
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
  const url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp/w/${WORKSPACE}`);
  return {
    sessions,
    url,
    close: async () => {
      await sessions.close();
      http.closeAllConnections();
      await new Promise<void>((done) => http.close(() => done()));
    },
  };
}

const JSON_AND_SSE = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** Opens a session by hand (no standalone GET stream, unlike the SDK client): its id. */
async function initialize(url: URL, token: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { ...JSON_AND_SSE, 'x-test-token': token },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'by-hand', version: '0' },
      },
    }),
  });
}

async function listTools(url: URL, token: string, sessionId: string): Promise<number> {
  const answer = await fetch(url, {
    method: 'POST',
    headers: { ...JSON_AND_SSE, 'x-test-token': token, 'mcp-session-id': sessionId },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  await answer.text();
  return answer.status;
}

describe('McpSessions', () => {
  let now = 0;
  let served: Served;
  let sessions: McpSessions;
  let url: URL;

  beforeAll(async () => {
    served = await serveSessions({ idleCloseMs: 60_000, now: () => now });
    ({ sessions, url } = served);
  });

  afterAll(async () => {
    await served.close();
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

  it("holds a bounded number of a token's sessions: its least recently used idle one makes room, busy ones refuse", async () => {
    const bounded = await serveSessions({ maxSessionsPerToken: 2 });
    const opened: string[] = [];
    const open = async (token: string) => {
      const answer = await initialize(bounded.url, token);
      await answer.text();
      const id = answer.headers.get('mcp-session-id');
      if (id !== null) opened.push(id);
      return answer;
    };
    const stream = new AbortController();
    try {
      await open('token-f');
      await open('token-f');
      const [first, second] = opened as [string, string];
      // The second is in use again, so the first is the least recently used: the third replaces it.
      expect(await listTools(bounded.url, 'token-f', second)).toBe(200);
      expect((await open('token-f')).status).toBe(200);
      expect(bounded.sessions.size).toBe(2);
      expect(await listTools(bounded.url, 'token-f', first)).toBe(404);
      expect(await listTools(bounded.url, 'token-f', second)).toBe(200);
      // Another token's sessions are its own.
      expect((await open('token-g')).status).toBe(200);

      // Both of token-f's sessions busy (an open stream each): a new one is refused, nothing is closed.
      const third = opened[2] as string;
      const streams = await Promise.all(
        [second, third].map((id) =>
          fetch(bounded.url, {
            method: 'GET',
            headers: { accept: 'text/event-stream', 'x-test-token': 'token-f', 'mcp-session-id': id },
            signal: stream.signal,
          }),
        ),
      );
      expect(streams.map((response) => response.status)).toEqual([200, 200]);
      const refused = await open('token-f');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.headers.get('content-type')).toContain('application/problem+json');
      expect(bounded.sessions.size).toBe(3);
    } finally {
      stream.abort();
      await bounded.close();
    }
  });

  // A session counts once its transport registers it, after the bound was checked: this holds only while nothing
  // between the two waits on I/O (no initialize can run in between). Checked in review; kept as the guard.
  it("holds the bound against a token's initializes that arrive together", async () => {
    const bounded = await serveSessions({ maxSessionsPerToken: 2 });
    try {
      const answers = await Promise.all(Array.from({ length: 6 }, () => initialize(bounded.url, 'token-h')));
      await Promise.all(answers.map((answer) => answer.text()));
      expect(bounded.sessions.size).toBeLessThanOrEqual(2);
      expect(answers.filter((answer) => answer.status === 200).length).toBeGreaterThanOrEqual(2);
      expect(answers.every((answer) => answer.status === 200 || answer.status === 429)).toBe(true);
    } finally {
      await bounded.close();
    }
  });

  // Found in review (failed before the fix): the transport's event stream carries a keep-alive comment every 15 s,
  // so a proxy's idle timeout does not cut a long call; a warm call's JSON answer sent nothing until it was done.
  it('keeps a long warm call alive: past the keep-alive interval its answer is an event stream of keep-alives', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((done) => (release = done));
    const bounded = await serveSessions({ keepAliveMs: 50 }, async () => {
      await held;
      return { content: [{ type: 'text', text: 'long' }] };
    });
    try {
      const opened = await initialize(bounded.url, 'token-i');
      await opened.text();
      const sessionId = opened.headers.get('mcp-session-id') as string;
      const answer = await fetch(bounded.url, {
        method: 'POST',
        headers: {
          ...JSON_AND_SSE,
          'x-test-token': 'token-i',
          'mcp-session-id': sessionId,
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 'long-1', method: 'tools/call', params: { name: 'x' } }),
      });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('text/event-stream');
      const reader = (answer.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      let text = '';
      while (!text.includes(': keepalive\n\n')) text += decoder.decode((await reader.read()).value);
      release();
      for (let read = await reader.read(); !read.done; read = await reader.read())
        text += decoder.decode(read.value);
      expect(text).toMatch(
        /^(: keepalive\n\n)+event: message\ndata: \{"jsonrpc":"2.0","id":"long-1","result":\{"content":\[\{"type":"text","text":"long"\}\]\}\}\n\n$/,
      );
    } finally {
      release();
      await bounded.close();
    }
  });

  // Checked in review, holding: a warm call counts as in flight, so the bound never evicts its session.
  it('never makes room by closing a session with a warm call in flight: the new one is refused, the call answers', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((done) => (release = done));
    let started: () => void = () => undefined;
    const running = new Promise<void>((done) => (started = done));
    const bounded = await serveSessions({ maxSessionsPerToken: 1 }, async () => {
      started();
      await held;
      return { content: [{ type: 'text', text: 'kept' }] };
    });
    try {
      const opened = await initialize(bounded.url, 'token-j');
      await opened.text();
      const pending = fetch(bounded.url, {
        method: 'POST',
        headers: {
          ...JSON_AND_SSE,
          'x-test-token': 'token-j',
          'mcp-session-id': opened.headers.get('mcp-session-id') as string,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 'kept-1', method: 'tools/call', params: { name: 'x' } }),
      });
      await running;
      const refused = await initialize(bounded.url, 'token-j');
      expect(refused.status).toBe(429);
      await refused.text();
      release();
      expect(await (await pending).json()).toEqual({
        jsonrpc: '2.0',
        id: 'kept-1',
        result: { content: [{ type: 'text', text: 'kept' }] },
      });
    } finally {
      release();
      await bounded.close();
    }
  });
});
