import { randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

// A low-level SDK server behind Streamable HTTP on 127.0.0.1 (a real socket), one MCP session per server
// instance (the v1 SDK's: a 2025-era peer), and a v2 SDK client connected to it.

export interface LoopbackServer {
  readonly url: URL;
  readonly close: () => Promise<void>;
}

export async function serveOverHttp(server: Server): Promise<LoopbackServer> {
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await server.connect(transport);
  const http: HttpServer = createServer((req, res) => {
    void transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    close: async () => {
      await server.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

export interface HttpClient {
  readonly client: Client;
  readonly transport: StreamableHTTPClientTransport;
  readonly protocolVersion: () => string | undefined;
}

export async function connectOverHttp(url: URL): Promise<HttpClient> {
  const transport = new StreamableHTTPClientTransport(url);
  const client = new Client({ name: 'gatehouse-test', version: '0.0.0' });
  await client.connect(transport);
  return { client, transport, protocolVersion: () => client.getNegotiatedProtocolVersion() };
}
