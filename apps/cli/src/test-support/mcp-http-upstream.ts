import { randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  isInitializeRequest,
} from '@modelcontextprotocol/sdk/types.js';

// An in-process SDK server over Streamable HTTP (a session and a Server per client) that requires one bearer
// token: what `gatehouse connect` bridges to in its own spec. It can be stopped and started again on the same
// port, losing its sessions, as a restarted gateway does.

export interface UpstreamEvents {
  /** Tool calls whose request signal aborted (the client sent notifications/cancelled). */
  cancelled: string[];
  /** Resolved when a `slow` call is running. */
  slowStarted: Promise<void>;
  /** Resolved when a `slow` call saw its cancellation. */
  slowCancelled: Promise<void>;
  /** Resolved when a `hang` call (it never answers) is running. */
  hangStarted: Promise<void>;
  /** Every Authorization header seen. */
  authorizations: Set<string>;
}

export interface HttpUpstream {
  readonly url: string;
  readonly events: UpstreamEvents;
  stop(): Promise<void>;
  start(): Promise<void>;
  sessions(): number;
}

export async function startHttpUpstream(token: string): Promise<HttpUpstream> {
  let markSlow: () => void = () => undefined;
  let markCancelled: () => void = () => undefined;
  let markHang: () => void = () => undefined;
  const events: UpstreamEvents = {
    cancelled: [],
    slowStarted: new Promise((resolve) => (markSlow = resolve)),
    slowCancelled: new Promise((resolve) => (markCancelled = resolve)),
    hangStarted: new Promise((resolve) => (markHang = resolve)),
    authorizations: new Set(),
  };
  let grown = false;

  function server(): Server {
    const mcp = new Server(
      { name: 'upstream', version: '1.0.0' },
      { capabilities: { tools: { listChanged: true } } },
    );
    mcp.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [
        { name: 'echo', inputSchema: { type: 'object' as const } },
        { name: 'slow', inputSchema: { type: 'object' as const } },
        { name: 'steps', inputSchema: { type: 'object' as const } },
        { name: 'grow', inputSchema: { type: 'object' as const } },
        { name: 'hang', inputSchema: { type: 'object' as const } },
        ...(grown ? [{ name: 'grown', inputSchema: { type: 'object' as const } }] : []),
      ],
    }));
    mcp.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      switch (request.params.name) {
        case 'echo':
          return { content: [{ type: 'text', text: `echo: ${String(request.params.arguments?.['text'])}` }] };
        case 'slow':
          markSlow();
          await new Promise<void>((resolve) => extra.signal.addEventListener('abort', () => resolve()));
          events.cancelled.push('slow');
          markCancelled();
          return { content: [{ type: 'text', text: 'cancelled' }] };
        case 'steps': {
          const progressToken = request.params._meta?.progressToken;
          if (progressToken !== undefined) {
            for (const progress of [1, 2]) {
              await extra.sendNotification({
                method: 'notifications/progress',
                params: { progressToken, progress, total: 2, message: `step ${progress}` },
              });
            }
          }
          return { content: [{ type: 'text', text: 'stepped' }] };
        }
        case 'hang':
          markHang();
          return new Promise<never>(() => undefined);
        case 'grow':
          grown = true;
          await mcp.sendToolListChanged();
          return { content: [{ type: 'text', text: 'grown' }] };
        default:
          throw new McpError(ErrorCode.InvalidParams, 'unknown tool');
      }
    });
    return mcp;
  }

  const transports = new Map<string, StreamableHTTPServerTransport>();
  const http: HttpServer = createServer((req, res) => {
    const authorization = req.headers.authorization ?? '';
    events.authorizations.add(authorization);
    if (authorization !== `Bearer ${token}`) {
      res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const body: unknown =
          chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
        const id = req.headers['mcp-session-id'];
        let transport = typeof id === 'string' ? transports.get(id) : undefined;
        if (transport === undefined && isInitializeRequest(body)) {
          const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
            sessionIdGenerator: () => randomUUID(),
            onsessioninitialized: (sessionId) => void transports.set(sessionId, created),
            onsessionclosed: (sessionId) => void transports.delete(sessionId),
          });
          await server().connect(created);
          transport = created;
        }
        if (transport === undefined) {
          res.writeHead(404).end();
          return;
        }
        await transport.handleRequest(req, res, body);
      })();
    });
  });
  let port = 0;
  const start = async () => {
    await new Promise<void>((done) => http.listen(port, '127.0.0.1', done));
    port = (http.address() as AddressInfo).port;
  };
  await start();
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    events,
    sessions: () => transports.size,
    start,
    stop: async () => {
      for (const transport of transports.values()) await transport.close().catch(() => undefined);
      transports.clear();
      http.closeAllConnections();
      await new Promise<void>((done) => http.close(() => done()));
    },
  };
}
