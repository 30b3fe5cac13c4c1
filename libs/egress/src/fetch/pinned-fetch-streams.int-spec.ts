// Long-lived bodies through the pinned fetch, against real servers on loopback only: an event stream stays
// open past the request timeout while bytes flow and is cut once it goes idle; the receive cap applies per
// event to an event stream and to the whole of any other body; and a real MCP server (the SDK's server side)
// answers through it, as the SDK's client transport will call it. No sleeps: the servers pace themselves, and
// the test waits on what they report.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { z } from 'zod';
import type { EgressPolicy } from '../policy/egress-policy';
import { createFixedResolver } from '../resolver/fixed-resolver';
import { EgressError } from './egress-error';
import { createPinnedFetch, type PinnedFetch, type PinnedFetchOptions } from './pinned-fetch';

const devPolicy: EgressPolicy = {
  allowInsecureLoopback: true,
  operatorDenylist: { cidrs: [], hostnames: [] },
  operatorAllowedPrivateRanges: [],
  tenantOptedInPrivateRanges: [],
};

const HOST = 'mcp.gatehouse.test';
const resolver = createFixedResolver({ [HOST]: ['127.0.0.1'] });

const made: PinnedFetch[] = [];
function pinnedFetch(overrides: Partial<PinnedFetchOptions> = {}): PinnedFetch {
  const fetch = createPinnedFetch({
    policy: devPolicy,
    resolver,
    timeoutMs: 10_000,
    maxResponseBytes: 1024,
    ...overrides,
  });
  made.push(fetch);
  return fetch;
}

interface TestServer {
  readonly url: string;
  close(): Promise<void>;
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<TestServer> {
  const server: Server = createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://${HOST}:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

async function failureOf(work: Promise<unknown>): Promise<EgressError> {
  const error = await work.then(
    () => new Error('expected a refusal'),
    (e: unknown) => e,
  );
  if (!(error instanceof EgressError)) throw error;
  return error;
}

/** Reads a body to its end or failure; what it had read, and how it ended. */
async function drain(response: Response): Promise<{ text: string; failure: unknown }> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) return { text, failure: undefined };
      text += decoder.decode(chunk.value, { stream: true });
    }
  } catch (failure) {
    return { text, failure };
  }
}

const events = (text: string): string[] => text.split('\n\n').filter((block) => block !== '');

afterEach(async () => {
  await Promise.all(made.splice(0).map((fetch) => fetch.close()));
});

describe('an event stream through the pinned fetch', () => {
  const REQUEST_TIMEOUT_MS = 500;
  let server: TestServer;
  let streamClosed: Promise<unknown>;

  beforeEach(async () => {
    server = await listen((req, res) => {
      if (req.url === '/ticking') {
        // Sends an event every 20 ms until it has been open for three request timeouts (its own clock), says
        // so, then goes silent without ending the response.
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
        streamClosed = once(res, 'close');
        const openedAt = performance.now();
        let sent = 0;
        const timer = setInterval(() => {
          if (performance.now() - openedAt < 3 * REQUEST_TIMEOUT_MS) {
            sent += 1;
            res.write(`id: ${sent}\ndata: {"tick":${sent}}\n\n`);
            return;
          }
          clearInterval(timer);
          res.write('event: quiet\ndata: {}\n\n');
        }, 20);
        res.on('close', () => clearInterval(timer));
        return;
      }
      if (req.url === '/many-small') {
        res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
        for (let i = 0; i < 100; i += 1) res.write(`data: ${'x'.repeat(90)}\n\n`);
        res.end();
        return;
      }
      if (req.url === '/one-big') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: small\n\n');
        res.write(`data: ${'y'.repeat(600)}\n`);
        res.write(`data: ${'y'.repeat(600)}\n\n`);
        res.end();
        return;
      }
      if (req.url === '/big-json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ result: 'z'.repeat(2000) }));
        return;
      }
      res.writeHead(404).end();
    });
  });

  afterEach(async () => {
    await server.close();
  });

  it('stays open past the request timeout while events flow, and is cut once idle', async () => {
    const fetch = pinnedFetch({ timeoutMs: REQUEST_TIMEOUT_MS, maxEventBytes: 1024 });
    const response = await fetch(`${server.url}/ticking`);
    expect(response.status).toBe(200);
    const { text, failure } = await drain(response);
    const received = events(text);
    // Everything the server sent in its three request timeouts arrived, the last word included...
    expect(received.length).toBeGreaterThan(3);
    expect(received.at(-1)).toBe('event: quiet\ndata: {}');
    // ...and then the silence cut the stream, as a timeout naming the origin only.
    expect(failure).toEqual(new EgressError('timeout', server.url));
    await streamClosed;
  });

  it('takes any number of events within the per-event cap, though together they pass the body cap', async () => {
    const fetch = pinnedFetch({ maxResponseBytes: 1024, maxEventBytes: 1024 });
    const { text, failure } = await drain(await fetch(`${server.url}/many-small`));
    expect(failure).toBeUndefined();
    expect(events(text)).toHaveLength(100);
  });

  it('cuts the stream at the first event over the per-event cap', async () => {
    const fetch = pinnedFetch({ maxResponseBytes: 100_000, maxEventBytes: 1024 });
    const { failure } = await drain(await fetch(`${server.url}/one-big`));
    expect(failure).toEqual(new EgressError('response_too_large', server.url));
  });

  it('caps an event stream as a whole when no per-event cap was asked for', async () => {
    const fetch = pinnedFetch({ maxResponseBytes: 1024 });
    const { failure } = await drain(await fetch(`${server.url}/many-small`));
    expect(failure).toEqual(new EgressError('response_too_large', server.url));
  });

  it('caps a JSON body as a whole, per-event cap or not', async () => {
    const fetch = pinnedFetch({ maxResponseBytes: 1024, maxEventBytes: 1024 });
    const response = await fetch(`${server.url}/big-json`);
    expect((await failureOf(response.text())).reason).toBe('response_too_large');
  });
});

describe('a real MCP server through the pinned fetch', () => {
  let server: TestServer;

  beforeEach(async () => {
    const mcp = new McpServer({ name: 'egress-test', version: '1.0.0' });
    mcp.registerTool(
      'echo',
      { description: 'Echoes its text', inputSchema: { text: z.string() } },
      ({ text }) => ({ content: [{ type: 'text', text }] }),
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
    await mcp.connect(transport);
    server = await listen((req, res) => {
      void transport.handleRequest(req, res);
    });
  });

  afterEach(async () => {
    await server.close();
  });

  it('is a fetch the SDK takes, and carries initialize and tools/call as event streams', async () => {
    const fetch = pinnedFetch({ maxResponseBytes: 64 * 1024, maxEventBytes: 64 * 1024 });
    // The SDK's StreamableHTTPClientTransport takes exactly this type as its `fetch` option.
    const sdkFetch: FetchLike = fetch;
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      sdkFetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: new Headers({
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        }),
        body: JSON.stringify(body),
      });
    const dataOf = async (response: Response): Promise<unknown> => {
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const data = (await response.text())
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice('data: '.length));
      return JSON.parse(data.join('\n'));
    };

    const initialized = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    const session = initialized.headers.get('mcp-session-id') ?? '';
    expect(session).not.toBe('');
    expect(await dataOf(initialized)).toMatchObject({
      id: 1,
      result: { serverInfo: { name: 'egress-test' } },
    });
    const sessionHeaders = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };

    const accepted = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, sessionHeaders);
    expect(accepted.status).toBe(202);
    await accepted.body?.cancel();

    const called = await post(
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } },
      sessionHeaders,
    );
    expect(await dataOf(called)).toEqual({
      jsonrpc: '2.0',
      id: 2,
      result: { content: [{ type: 'text', text: 'hi' }] },
    });
  });
});
