// A loopback forwarder that adds one `Authorization: Bearer` header to every request and passes everything else
// as sent (method, path, Host, Origin, body, and the response stream back, unbuffered). It stands for the agent
// runtime that holds the token, in front of a client that cannot send one: the official conformance suite's
// server scenarios connect without authentication (docs/conformance.md). A request that already carries an
// Authorization header keeps its own.
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BearerForwarder {
  /** `http://localhost:<port>`: the forwarder's own origin (paths are forwarded as they are). */
  readonly origin: string;
  readonly close: () => Promise<void>;
}

export async function startBearerForwarder(target: string, token: string): Promise<BearerForwarder> {
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    const headers: IncomingHttpHeaders = { ...req.headers };
    headers.authorization ??= `Bearer ${token}`;
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(forwarded);
    res.on('close', () => forwarded.destroy());
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://localhost:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
