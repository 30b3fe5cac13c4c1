import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A web-standard fetch handler (what the v2 SDK's createMcpHandler returns) served by node:http on 127.0.0.1: each
// request becomes a `Request`, each `Response` is written back as it streams (an SSE answer included).

export interface ServedHandler {
  readonly port: number;
  readonly close: () => Promise<void>;
}

export async function serveFetchHandler(
  fetch: (request: Request) => Promise<Response>,
): Promise<ServedHandler> {
  const server: Server = createServer((req, res) => {
    void answer(fetch, req, res, port).catch(() => res.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

async function answer(
  fetch: (request: Request) => Promise<Response>,
  req: IncomingMessage,
  res: ServerResponse,
  port: number,
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const one of value) headers.append(name, one);
  }
  const gone = new AbortController();
  res.once('close', () => gone.abort());
  const method = req.method ?? 'GET';
  const response = await fetch(
    new Request(`http://127.0.0.1:${port}${req.url ?? '/'}`, {
      method,
      headers,
      signal: gone.signal,
      ...(method === 'GET' || method === 'HEAD' ? {} : { body: Buffer.concat(chunks) }),
    }),
  );
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body !== null) {
    for await (const chunk of response.body) res.write(chunk);
  }
  res.end();
}
