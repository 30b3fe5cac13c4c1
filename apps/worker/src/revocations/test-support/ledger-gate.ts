import { EventEmitter, once } from 'node:events';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

// An HTTP relay of a test's own in front of the API, for the worker only: it forwards every request, except that
// while `refuse(true)` is in force it answers each read of the revocation ledger 503 itself (the API answers
// leases but its ledger cannot be read: the worker's revocation holder cannot start). Every refused read is
// announced, so a test can await the holder's next attempt instead of sleeping.

export interface LedgerGate {
  readonly url: string;
  /** Whether reads of `/v1/revocations` are answered 503 from now on. */
  refuse(refusing: boolean): void;
  /** How many ledger reads were refused so far. */
  readonly refused: number;
  /** Resolves once the refused count reaches `count`, or rejects after `deadlineMs`. */
  refusedAtLeast(count: number, deadlineMs: number): Promise<void>;
  close(): Promise<void>;
}

export async function startLedgerGate(apiUrl: string): Promise<LedgerGate> {
  const target = new URL(apiUrl);
  const events = new EventEmitter();
  let refusing = false;
  let refused = 0;
  const server = createServer((request, response) => {
    if (refusing && request.url?.startsWith('/v1/revocations') === true) {
      request.resume();
      refused += 1;
      response.writeHead(503, { 'content-type': 'application/problem+json' });
      response.end(
        JSON.stringify({ status: 503, code: 'dependency_unavailable', title: 'Dependency unavailable' }),
      );
      events.emit('refused');
      return;
    }
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: request.url,
        headers: request.headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    refuse: (value) => {
      refusing = value;
    },
    get refused() {
      return refused;
    },
    refusedAtLeast: (count, deadlineMs) =>
      new Promise<void>((resolve, reject) => {
        if (refused >= count) return resolve();
        const timer = setTimeout(() => {
          events.off('refused', onRefused);
          reject(new Error(`${refused} ledger reads refused within ${deadlineMs} ms, expected ${count}`));
        }, deadlineMs);
        const onRefused = () => {
          if (refused < count) return;
          clearTimeout(timer);
          events.off('refused', onRefused);
          resolve();
        };
        events.on('refused', onRefused);
      }),
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
