// An in-process MCP server over Streamable HTTP on a loopback port, a session (and a server from the factory) per
// client: the upstream the gateway's tests connect to through a lease. Written once here so every acceptance spec
// serves its SDK servers the same way.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

/** What the factory returns: the low-level `Server` or an `McpServer`, both connect to a transport. */
export interface ConnectableMcpServer {
  connect(transport: StreamableHTTPServerTransport): Promise<void>;
}

export interface StreamableHttpUpstream {
  /** `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** Sessions open now. */
  readonly sessions: () => number;
  readonly close: () => Promise<void>;
}

export interface StreamableHttpUpstreamOptions {
  /** Sees every request (its headers and parsed JSON-RPC body) before it is served: a spec recording what came. */
  readonly onRequest?: (req: IncomingMessage, body: unknown) => void;
}

export async function startStreamableHttpUpstream(
  serverFor: () => ConnectableMcpServer,
  options: StreamableHttpUpstreamOptions = {},
): Promise<StreamableHttpUpstream> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const http: HttpServer = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const body: unknown =
          chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
        options.onRequest?.(req, body);
        const id = req.headers['mcp-session-id'];
        let transport = typeof id === 'string' ? transports.get(id) : undefined;
        if (transport === undefined && isInitializeRequest(body)) {
          const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
            sessionIdGenerator: () => randomUUID(),
            onsessioninitialized: (sessionId) => void transports.set(sessionId, created),
            onsessionclosed: (sessionId) => void transports.delete(sessionId),
          });
          created.onclose = () => {
            if (created.sessionId !== undefined) transports.delete(created.sessionId);
          };
          await serverFor().connect(created);
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
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    sessions: () => transports.size,
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((done) => http.close(() => done()));
    },
  };
}
