import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { AdmittedHttpTransport } from '@gatehouse/contracts';
import { connectAdmitted, type AdmittedSession, type ConnectOptions } from '../index';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

// The HTTP transport's streams, against in-process SDK servers on a loopback port: the standalone GET event
// stream stays open past the request timeout while idle (an idle bound, not a body bound), an event stream is
// capped per message (many messages past the cap pass; one over it drops the connection), and the pinned
// fetch's pool closes when the transport does.

const REQUEST_TIMEOUT_MS = 1_000;
const CAP = 16 * 1024;

const options = (overrides: Partial<ConnectOptions> = {}): ConnectOptions => ({
  serverName: 'streams',
  clientInfo: { name: 'gatehouse-test', version: '0.0.0' },
  defaultStartupTimeoutMs: 10_000,
  searchPath: '/usr/bin:/bin',
  requestTimeoutMs: REQUEST_TIMEOUT_MS,
  receiveCapBytes: CAP,
  ...overrides,
});

function http(port: number): AdmittedHttpTransport {
  return {
    kind: 'http',
    url: `http://127.0.0.1:${port}/mcp`,
    origin: `http://127.0.0.1:${port}`,
    addresses: ['127.0.0.1'],
    allowInsecureLoopback: true,
    privateRanges: [],
    headers: {},
    principalHeader: null,
    headersHelper: null,
    startupTimeoutMs: null,
  };
}

interface Served {
  readonly port: number;
  readonly mcp: () => McpServer;
  /** GET requests (the standalone stream), with whether each is still open. */
  readonly gets: { readonly req: IncomingMessage; closed: boolean }[];
  readonly nextGet: () => Promise<IncomingMessage>;
  readonly sockets: Set<Socket>;
  readonly close: () => Promise<void>;
}

/** One stateful McpServer per session behind node:http; every socket and GET request is recorded. */
async function serve(setup: (server: McpServer) => void): Promise<Served> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const servers: McpServer[] = [];
  const gets: { req: IncomingMessage; closed: boolean }[] = [];
  const getWaiters: ((req: IncomingMessage) => void)[] = [];
  const sockets = new Set<Socket>();
  const httpServer: HttpServer = createServer((req, res) => {
    if (req.method === 'GET') {
      const entry = { req, closed: false };
      gets.push(entry);
      res.on('close', () => {
        entry.closed = true;
      });
      getWaiters.splice(0).forEach((resolve) => resolve(req));
    }
    const id = req.headers['mcp-session-id'];
    const known = typeof id === 'string' ? transports.get(id) : undefined;
    if (known) return void known.handleRequest(req, res);
    const server = new McpServer(
      { name: 'streams', version: '1.0.0' },
      { capabilities: { tools: { listChanged: true }, logging: {} } },
    );
    setup(server);
    servers.push(server);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => void transports.set(sid, transport),
    });
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  });
  httpServer.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  httpServer.listen(0, '127.0.0.1');
  await once(httpServer, 'listening');
  return {
    port: (httpServer.address() as AddressInfo).port,
    mcp: () => {
      const last = servers.at(-1);
      if (last === undefined) throw new Error('no session yet');
      return last;
    },
    gets,
    nextGet: () =>
      gets.length > 0
        ? Promise.resolve(gets[0]!.req)
        : new Promise<IncomingMessage>((resolve) => getWaiters.push(resolve)),
    sockets,
    close: async () => {
      await Promise.all(servers.map((s) => s.close()));
      httpServer.closeAllConnections();
      await new Promise<void>((done) => httpServer.close(() => done()));
    },
  };
}

async function connected(port: number, overrides: Partial<ConnectOptions> = {}): Promise<AdmittedSession> {
  const result = await connectAdmitted(http(port), options(overrides));
  if (!result.ok) throw new Error(`connect failed: ${result.reason} ${result.detail ?? ''}`);
  return result.session;
}

const served: Served[] = [];
const sessions: AdmittedSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  await Promise.all(served.splice(0).map((s) => s.close()));
});

async function start(setup: (server: McpServer) => void = () => undefined): Promise<Served> {
  const s = await serve(setup);
  served.push(s);
  return s;
}

function registerFiller(server: McpServer): void {
  server.registerTool('placeholder', { description: 'keeps the tools capability' }, () => ({
    content: [{ type: 'text', text: 'ok' }],
  }));
}

describe('HTTP transport streams', () => {
  it('keeps an idle standalone SSE stream open past the request timeout, and delivers what comes on it', async () => {
    const server = await start(registerFiller);
    const session = await connected(server.port);
    sessions.push(session);
    const notified = new Promise<void>((resolve) =>
      session.client.setNotificationHandler('notifications/tools/list_changed', () => resolve()),
    );
    await server.nextGet();
    // The stream stays silent for well over the request timeout (the server's own clock), then speaks.
    const quiet = new Promise<void>((resolve) => setTimeout(resolve, REQUEST_TIMEOUT_MS * 2.5));
    await quiet;
    expect(server.gets).toHaveLength(1);
    expect(server.gets[0]?.closed).toBe(false);
    server.mcp().sendToolListChanged();
    await notified;
    // The same stream carried it: none was cut and opened again.
    expect(server.gets).toHaveLength(1);
    expect(server.gets[0]?.closed).toBe(false);
  });

  it('caps an event stream per message: many messages past the cap pass, and the call completes', async () => {
    const server = await start((mcp) => {
      mcp.registerTool('chatty', { description: 'logs a lot, answers little' }, async (extra) => {
        // Five messages of 6 KiB on this call's own stream: 30 KiB in all, each under the 16 KiB cap.
        for (let i = 0; i < 5; i += 1) {
          await extra.sendNotification({
            method: 'notifications/message',
            params: { level: 'info', data: `${i}:${'x'.repeat(6 * 1024)}` },
          });
        }
        return { content: [{ type: 'text', text: 'done' }] };
      });
    });
    const session = await connected(server.port);
    sessions.push(session);
    const result = await session.callTool('chatty', {});
    expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
  });

  it('drops the connection on one message over the cap, failing the call now rather than at its timeout', async () => {
    const server = await start((mcp) => {
      mcp.registerTool('big', { description: 'one message over the cap' }, () => ({
        content: [{ type: 'text', text: 'y'.repeat(CAP * 2) }],
      }));
    });
    const session = await connected(server.port);
    sessions.push(session);
    const closed = new Promise<void>((resolve) => {
      const previous = session.client.onclose;
      session.client.onclose = () => {
        previous?.();
        resolve();
      };
    });
    // The call's own timeout is a minute: only the dropped connection can end it within the test.
    await expect(session.callTool('big', {}, { timeoutMs: 60_000 })).rejects.toThrow(/closed/i);
    await closed;
  });

  it('closes the pooled connections when the transport closes (the SDK client closing it)', async () => {
    const server = await start(registerFiller);
    const session = await connected(server.port);
    sessions.push(session);
    await server.nextGet();
    expect(server.sockets.size).toBeGreaterThan(0);
    const gone = Promise.all([...server.sockets].map((socket) => once(socket, 'close')));
    // Not the session's close: the SDK client's, which closes the transport.
    await session.client.close();
    await gone;
    expect(server.sockets.size).toBe(0);
  });
});
