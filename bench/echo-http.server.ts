// The gateway-call bench's "direct HTTP" baseline, in its own process: the same `echo` tool as the stdio upstream
// (bench/echo-stdio.server.ts) on the SDK's own Streamable HTTP server (McpServer over
// StreamableHTTPServerTransport, one transport and server per session, the SDK's defaults). Listens on
// 127.0.0.1 on a free port and prints `{"port":N}` once listening.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { echoServer } from './echo-stdio.server';

const sessions = new Map<string, StreamableHTTPServerTransport>();

const http = createServer((req, res) => {
  const id = req.headers['mcp-session-id'];
  const known = typeof id === 'string' ? sessions.get(id) : undefined;
  if (typeof id === 'string' && known === undefined) {
    res.writeHead(404).end();
    return;
  }
  const serve = async (): Promise<void> => {
    let transport = known;
    if (transport === undefined) {
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => void sessions.set(sessionId, created),
        onsessionclosed: (sessionId) => void sessions.delete(sessionId),
      });
      await echoServer().connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res);
  };
  serve().catch(() => {
    if (!res.headersSent) res.writeHead(500).end();
  });
});

http.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (http.address() as AddressInfo).port })}\n`);
});
process.on('SIGTERM', () => process.exit(0));
