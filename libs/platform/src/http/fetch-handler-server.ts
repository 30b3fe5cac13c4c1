import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webRequestOf, writeWebResponse } from './web-exchange.js';

// A web-standard fetch handler (SDK v2's createMcpHandler returns one) served by node:http on 127.0.0.1 through
// the same bridge the gateway's 2026 leg and admin MCP use. The body is read and handed over parsed, as Fastify
// does for those. Specs serve their SDK v2 upstreams with it.

export type FetchHandler = (request: Request, options: { parsedBody?: unknown }) => Promise<Response>;

export interface ServedFetchHandler {
  /** The MCP endpoint: `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  readonly port: number;
  readonly close: () => Promise<void>;
}

export async function serveFetchHandler(fetch: FetchHandler): Promise<ServedFetchHandler> {
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
    port,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
