// The pinned fetch against real HTTP servers on loopback (never any other address as a real target). Names
// under `.test` (RFC 6761) never resolve in real DNS, so a request that reaches a server through one proves the
// fetch used the address our resolver gave, not a resolution of its own.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EgressPolicy } from '../policy/egress-policy';
import type { ResolveResult, Resolver } from '../resolver/resolver.port';
import { EgressError } from './egress-error';
import { createPinnedFetch, type PinnedFetch, type PinnedFetchOptions } from './pinned-fetch';

interface Hit {
  readonly path: string;
  readonly host: string | undefined;
  readonly serverAddress: string | undefined;
}

interface TestServer {
  readonly port: number;
  readonly hits: Hit[];
  /** Settles when the next request arrives. */
  nextRequest(): Promise<unknown>;
  close(): Promise<void>;
}

function route(req: IncomingMessage, res: ServerResponse): void {
  switch (req.url) {
    case '/hello':
      res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
      return;
    case '/redirect-metadata':
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      return;
    case '/redirect-same-server':
      res.writeHead(307, { location: '/hello' }).end();
      return;
    case '/big':
      res.writeHead(200, { 'content-length': '2048' }).end('x'.repeat(2048));
      return;
    case '/chunked-big':
      res.writeHead(200);
      for (let i = 0; i < 8; i += 1) res.write('y'.repeat(512));
      res.end();
      return;
    case '/no-content':
      res.writeHead(204).end();
      return;
    case '/echo': {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        res.writeHead(201, {
          'content-type': 'application/json',
          'x-seen-auth': req.headers.authorization ?? '',
        });
        res.end(Buffer.concat(chunks));
      });
      return;
    }
    case '/hang':
      return; // never answers; closed with the server
    default:
      res.writeHead(404).end();
  }
}

async function startServer(host: string, port = 0): Promise<TestServer> {
  const hits: Hit[] = [];
  const server: Server = createServer((req, res) => {
    hits.push({ path: req.url ?? '', host: req.headers.host, serverAddress: req.socket.localAddress });
    route(req, res);
  });
  server.listen(port, host);
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    nextRequest: () => once(server, 'request'),
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** A resolver that gives the next answer of a script on each call (the last one repeats), and counts. */
function scriptedResolver(script: readonly (readonly string[])[]): Resolver & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    resolve(hostname: string): Promise<ResolveResult> {
      calls.push(hostname);
      const addresses = script[Math.min(calls.length, script.length) - 1] ?? [];
      return Promise.resolve({ ok: true, addresses });
    },
  };
}

const devPolicy: EgressPolicy = {
  allowInsecureLoopback: true,
  operatorDenylist: { cidrs: [], hostnames: [] },
  operatorAllowedPrivateRanges: [],
  tenantOptedInPrivateRanges: [],
};

async function failureOf(work: Promise<unknown>): Promise<EgressError> {
  const error = await work.then(
    () => new Error('expected a refusal'),
    (e: unknown) => e,
  );
  if (!(error instanceof EgressError)) throw error;
  return error;
}

describe('createPinnedFetch against loopback servers', () => {
  let server: TestServer;

  beforeEach(async () => {
    server = await startServer('127.0.0.1');
  });

  const made: PinnedFetch[] = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map((fetch) => fetch.close()));
    await server.close();
  });

  const fetchWith = (resolver: Resolver, overrides: Partial<PinnedFetchOptions> = {}): PinnedFetch => {
    const fetch = createPinnedFetch({
      policy: devPolicy,
      resolver,
      timeoutMs: 10_000,
      maxResponseBytes: 1024,
      ...overrides,
    });
    made.push(fetch);
    return fetch;
  };

  it('connects to the checked address, and re-checks (and refuses) when the name rebinds', async () => {
    const resolver = scriptedResolver([['127.0.0.1'], ['10.0.0.7']]);
    // No remembered answer: every request asks the resolver again.
    const fetch = fetchWith(resolver, { admissionTtlMs: 0 });
    const url = `http://rebind.gatehouse.test:${server.port}/hello`;

    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('hello');
    expect(server.hits).toEqual([
      { path: '/hello', host: `rebind.gatehouse.test:${server.port}`, serverAddress: '127.0.0.1' },
    ]);
    expect(resolver.calls).toEqual(['rebind.gatehouse.test']);

    const refusal = await failureOf(fetch(url));
    expect(refusal.reason).toBe('private_destination');
    expect(refusal.origin).toBe(`http://rebind.gatehouse.test:${server.port}`);
    expect(resolver.calls).toHaveLength(2);
    expect(server.hits).toHaveLength(1);
  });

  it('refuses a 302 to a metadata address without following it: exactly one request reaches the server', async () => {
    const fetch = fetchWith(scriptedResolver([['127.0.0.1']]));
    const refusal = await failureOf(
      fetch(`http://redirector.gatehouse.test:${server.port}/redirect-metadata`),
    );
    expect(refusal.reason).toBe('redirect_refused');
    expect(refusal.message).not.toContain('169.254');
    expect(server.hits.map((hit) => hit.path)).toEqual(['/redirect-metadata']);
  });

  it('refuses a redirect even to an admitted place on the same server, whatever init.redirect asks', async () => {
    const fetch = fetchWith(scriptedResolver([['127.0.0.1']]));
    const url = `http://same.gatehouse.test:${server.port}/redirect-same-server`;
    for (const redirect of [undefined, 'follow', 'manual', 'error'] as const) {
      const refusal = await failureOf(fetch(url, redirect === undefined ? {} : { redirect }));
      expect(refusal.reason).toBe('redirect_refused');
    }
    expect(server.hits.map((hit) => hit.path)).toEqual(Array(4).fill('/redirect-same-server'));
  });

  it('makes no connection at all for a URL admission refuses', async () => {
    const strict: EgressPolicy = { ...devPolicy, allowInsecureLoopback: false };
    const fetch = fetchWith(scriptedResolver([['127.0.0.1']]), { policy: strict });
    expect((await failureOf(fetch(`http://127.0.0.1:${server.port}/hello`))).reason).toBe('insecure_scheme');
    expect((await failureOf(fetch(`https://127.0.0.1:${server.port}/hello`))).reason).toBe(
      'loopback_destination',
    );
    expect(server.hits).toEqual([]);
  });

  it('refuses a declared body over the cap before reading it', async () => {
    const fetch = fetchWith(scriptedResolver([['127.0.0.1']]));
    const refusal = await failureOf(fetch(`http://big.gatehouse.test:${server.port}/big`));
    expect(refusal.reason).toBe('response_too_large');
  });

  it('errors a streamed body once it passes the cap', async () => {
    const fetch = fetchWith(scriptedResolver([['127.0.0.1']]));
    const response = await fetch(`http://big.gatehouse.test:${server.port}/chunked-big`);
    expect(response.status).toBe(200);
    expect((await failureOf(response.text())).reason).toBe('response_too_large');
  });

  it('sends methods, headers and bodies through, and reads bodies within the cap', async () => {
    const fetch = fetchWith(scriptedResolver([['127.0.0.1']]));
    const response = await fetch(`http://api.gatehouse.test:${server.port}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer t0ken' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-seen-auth')).toBe('Bearer t0ken');
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 1, method: 'ping' });
  });

  it('returns a body-less response for 204', async () => {
    const fetch = fetchWith(scriptedResolver([['127.0.0.1']]));
    const response = await fetch(`http://api.gatehouse.test:${server.port}/no-content`);
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });

  it('gives up on a server that never answers with a typed timeout', async () => {
    const fetch = fetchWith(scriptedResolver([['127.0.0.1']]), { timeoutMs: 200 });
    const refusal = await failureOf(fetch(`http://slow.gatehouse.test:${server.port}/hang`));
    expect(refusal.reason).toBe('timeout');
    expect(server.hits.map((hit) => hit.path)).toEqual(['/hang']);
  });

  it('reports a refused connection by class and origin only, never the address or path', async () => {
    const closed = await startServer('127.0.0.1');
    const port = closed.port;
    await closed.close();
    const fetch = fetchWith(scriptedResolver([['127.0.0.1']]));
    const refusal = await failureOf(fetch(`http://gone.gatehouse.test:${port}/secret-path?token=hunter2`));
    expect(refusal.reason).toBe('connection_failed');
    expect(refusal.message).toBe(`egress connection_failed: http://gone.gatehouse.test:${port}`);
    expect(refusal.cause).toBeUndefined();
  });

  it("passes the caller's abort through", async () => {
    const fetch = fetchWith(scriptedResolver([['127.0.0.1']]));
    const controller = new AbortController();
    const arrived = server.nextRequest();
    const pending = fetch(`http://slow.gatehouse.test:${server.port}/hang`, { signal: controller.signal });
    // Abort once the request has reached the server, so the abort interrupts a real exchange.
    await Promise.race([arrived, pending]);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('createPinnedFetch never resolves a second time', () => {
  it('reaches the pinned loopback address even where the system resolver would send the name elsewhere', async () => {
    // The system resolves `localhost` to 127.0.0.1 (or ::1). A decoy listens there on the same port; the
    // admitted address is 127.0.0.2. Only the pinned lookup reaches the target.
    const target = await startServer('127.0.0.2');
    const decoy = await startServer('127.0.0.1', target.port);
    try {
      const resolver = scriptedResolver([['127.0.0.2']]);
      const fetch = createPinnedFetch({
        policy: devPolicy,
        resolver,
        timeoutMs: 10_000,
        maxResponseBytes: 1024,
      });
      const response = await fetch(`http://localhost:${target.port}/hello`);
      expect(await response.text()).toBe('hello');
      expect(target.hits).toEqual([
        { path: '/hello', host: `localhost:${target.port}`, serverAddress: '127.0.0.2' },
      ]);
      expect(decoy.hits).toEqual([]);
    } finally {
      await target.close();
      await decoy.close();
    }
  });
});
