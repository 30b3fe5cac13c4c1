import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webRequestOf, writeWebResponse } from '@gatehouse/platform';

// An MCP upstream that is a web-standard fetch handler (SDK v2's createMcpHandler), served on 127.0.0.1 by
// node:http through the same bridge the gateway's own 2026 leg uses. The body is read and parsed here and handed
// over parsed, as Fastify does for the gateway.

export interface FetchHandlerUpstream {
  /** The MCP endpoint: `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  readonly close: () => Promise<void>;
}

export type McpFetchHandler = (request: Request, options: { parsedBody?: unknown }) => Promise<Response>;

export async function serveFetchHandler(fetch: McpFetchHandler): Promise<FetchHandlerUpstream> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const gone = new AbortController();
      res.once('close', () => gone.abort());
      void (async () => {
        const parsedBody: unknown = text === '' ? undefined : JSON.parse(text);
        await writeWebResponse(await fetch(webRequestOf(req, gone.signal), { parsedBody }), res);
      })().catch(() => res.destroy());
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
