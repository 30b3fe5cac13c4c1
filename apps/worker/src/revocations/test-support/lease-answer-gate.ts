import { once } from 'node:events';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

// An HTTP relay of a test's own in front of the API, for the worker only: it forwards every request, except that
// once `holdNextLease()` is called it holds back the API's answer to the next `POST /v1/leases` until the test
// opens it. The lease is committed at the API while the worker does not have it yet: a test can commit and
// deliver a revocation exactly between the worker's ledger position and its hold of the lease.

export interface HeldLeaseAnswer {
  /** Resolves once the API has answered the lease (committed); the answer waits for `open()`. */
  readonly answered: Promise<void>;
  open(): void;
}

export interface LeaseAnswerGate {
  readonly url: string;
  /** Holds the answer of the next lease request (only that one). */
  holdNextLease(): HeldLeaseAnswer;
  close(): Promise<void>;
}

export async function startLeaseAnswerGate(apiUrl: string): Promise<LeaseAnswerGate> {
  const target = new URL(apiUrl);
  let next: { answered: () => void; opened: Promise<void> } | null = null;
  const server = createServer((request, response) => {
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: request.url,
        headers: request.headers,
      },
      (answer) => {
        const gated = next !== null && request.method === 'POST' && request.url === '/v1/leases' ? next : null;
        if (gated !== null) next = null;
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          gated?.answered();
          void (gated?.opened ?? Promise.resolve()).then(() => {
            response.writeHead(answer.statusCode ?? 502, answer.headers);
            response.end(Buffer.concat(chunks));
          });
        });
      },
    );
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const openers = new Set<() => void>();
  return {
    url: `http://127.0.0.1:${port}`,
    holdNextLease: () => {
      let answered!: () => void;
      const answeredPromise = new Promise<void>((done) => (answered = done));
      let open!: () => void;
      const opened = new Promise<void>((done) => (open = done));
      openers.add(open);
      next = { answered, opened };
      return { answered: answeredPromise, open };
    },
    close: () =>
      new Promise<void>((done) => {
        // A held answer is let go, so no request is left waiting on the test.
        for (const open of openers) open();
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
