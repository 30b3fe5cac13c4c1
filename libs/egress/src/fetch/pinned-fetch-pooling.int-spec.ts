// Connection reuse and re-admission of the pinned fetch, against real HTTP servers on loopback only. Sockets
// are counted by the servers' own 'connection' events, so "reused" is what the server saw, not what our code
// says about itself. The admission TTL runs on an injected clock: no sleeps.
//
// undici hands a socket back to its pool a tick after the body's end reaches the reader, so a request sent
// the moment the previous body ended finds no idle socket and opens a second one; from then on the two
// alternate. Node's own fetch (the SDK's default) does the same. "Reused" is therefore: never more than the
// two sockets back-to-back traffic settles on, however many requests.
import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { EgressPolicy } from '../policy/egress-policy';
import type { ResolveResult, Resolver } from '../resolver/resolver.port';
import { EgressError } from './egress-error';
import { createPinnedFetch, type PinnedFetch, type PinnedFetchOptions } from './pinned-fetch';

interface CountingServer {
  readonly port: number;
  /** Sockets the server accepted, in order. */
  readonly sockets: Socket[];
  /** Paths served, with the index (in `sockets`) of the socket each came on. */
  readonly hits: { path: string; socket: number }[];
  /** Responses of /hold requests, waiting to be answered. */
  readonly held: ServerResponse[];
  /** Settles once `count` requests have arrived in all. */
  requests(count: number): Promise<void>;
  close(): Promise<void>;
}

async function startServer(host: string, port = 0): Promise<CountingServer> {
  const sockets: Socket[] = [];
  const hits: { path: string; socket: number }[] = [];
  const held: ServerResponse[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server: Server = createServer((req, res) => {
    hits.push({ path: req.url ?? '', socket: sockets.indexOf(req.socket) });
    for (const waiter of waiters.filter((w) => hits.length >= w.count)) waiter.resolve();
    if (req.url === '/hold') held.push(res);
    else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  server.on('connection', (socket: Socket) => sockets.push(socket));
  server.listen(port, host);
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    sockets,
    hits,
    held,
    requests: (count) =>
      hits.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve })),
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** The next answer of a script on each call (the last one repeats), counting the calls. */
function scriptedResolver(script: readonly (readonly string[])[]): Resolver & { calls: number } {
  const state = {
    calls: 0,
    resolve(): Promise<ResolveResult> {
      state.calls += 1;
      return Promise.resolve({ ok: true, addresses: script[Math.min(state.calls, script.length) - 1] ?? [] });
    },
  };
  return state;
}

const devPolicy: EgressPolicy = {
  allowInsecureLoopback: true,
  operatorDenylist: { cidrs: [], hostnames: [] },
  operatorAllowedPrivateRanges: [],
  tenantOptedInPrivateRanges: [],
};

const made: PinnedFetch[] = [];
function pinnedFetch(resolver: Resolver, overrides: Partial<PinnedFetchOptions> = {}): PinnedFetch {
  const fetch = createPinnedFetch({
    policy: devPolicy,
    resolver,
    timeoutMs: 10_000,
    maxResponseBytes: 1024,
    ...overrides,
  });
  made.push(fetch);
  return fetch;
}

afterEach(async () => {
  await Promise.all(made.splice(0).map((fetch) => fetch.close()));
});

async function read(fetch: PinnedFetch, url: string): Promise<unknown> {
  const response = await fetch(url);
  return response.json();
}

describe('the pinned fetch pools connections per admitted origin', () => {
  let server: CountingServer;
  beforeEach(async () => {
    server = await startServer('127.0.0.1');
  });
  afterEach(async () => {
    await server.close();
  });

  it('sends sequential requests over the same connections, not one each', async () => {
    const fetch = pinnedFetch(scriptedResolver([['127.0.0.1']]));
    for (let i = 0; i < 50; i += 1) {
      expect(await read(fetch, `http://api.gatehouse.test:${server.port}/call-${i}`)).toEqual({ ok: true });
    }
    expect(server.hits).toHaveLength(50);
    expect(server.sockets.length).toBeLessThanOrEqual(2);
  });

  it('opens at most connectionsPerOrigin connections for concurrent requests, and reuses them', async () => {
    const fetch = pinnedFetch(scriptedResolver([['127.0.0.1']]), { connectionsPerOrigin: 2 });
    const url = `http://api.gatehouse.test:${server.port}/hold`;
    const pending = [fetch(url), fetch(url), fetch(url), fetch(url)];
    await server.requests(2);
    // Answer whatever is held until all four were served; the last two can only come over the first two sockets.
    let answered = 0;
    while (answered < 4) {
      await server.requests(answered + 1);
      server.held.shift()?.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      answered += 1;
    }
    const responses = await Promise.all(pending);
    for (const response of responses) expect(await response.json()).toEqual({ ok: true });
    expect(server.sockets).toHaveLength(2);
  });

  it('asks the resolver once per TTL, not once per request', async () => {
    let clock = 0;
    const resolver = scriptedResolver([['127.0.0.1']]);
    const fetch = pinnedFetch(resolver, { admissionTtlMs: 1_000, now: () => clock });
    const url = `http://api.gatehouse.test:${server.port}/x`;
    for (let i = 0; i < 5; i += 1) await read(fetch, url);
    expect(resolver.calls).toBe(1);
    const before = server.sockets.length;
    clock += 1_000;
    for (let i = 0; i < 5; i += 1) await read(fetch, url);
    expect(resolver.calls).toBe(2);
    // The same answer again: the same pool, no new connection.
    expect(server.sockets).toHaveLength(before);
  });
});

describe('the pinned fetch re-admits when the answer changes', () => {
  it('retires the pool pinned to the old answer, pins a new one, and refuses an answer the policy refuses', async () => {
    // Two servers on one port: the first answer points at 127.0.0.1, the changed one at 127.0.0.2.
    const second = await startServer('127.0.0.2');
    const first = await startServer('127.0.0.1', second.port);
    try {
      let clock = 0;
      const resolver = scriptedResolver([['127.0.0.1'], ['127.0.0.2'], ['127.0.0.2', '10.0.0.7']]);
      const fetch = pinnedFetch(resolver, { admissionTtlMs: 1_000, now: () => clock });
      const url = `http://moving.gatehouse.test:${first.port}/x`;

      for (let i = 0; i < 3; i += 1) await read(fetch, url);
      expect(first.hits).toHaveLength(3);
      const oldSockets = first.sockets.length;
      const oldSocketsClosed = Promise.all(first.sockets.map((socket) => once(socket, 'close')));

      clock += 1_000;
      for (let i = 0; i < 3; i += 1) await read(fetch, url);
      expect(resolver.calls).toBe(2);
      expect(second.hits).toHaveLength(3);
      expect(first.hits).toHaveLength(3);
      // The retired pool lets its idle connections go.
      await oldSocketsClosed;
      const newSockets = second.sockets.length;

      clock += 1_000;
      const refusal: unknown = await fetch(url).catch((e: unknown) => e);
      expect(refusal).toBeInstanceOf(EgressError);
      expect(refusal).toMatchObject({
        reason: 'private_destination',
        message: `egress private_destination: http://moving.gatehouse.test:${first.port}`,
      });
      expect(second.hits).toHaveLength(3);
      expect(first.sockets).toHaveLength(oldSockets);
      expect(second.sockets).toHaveLength(newSockets);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('treats a reordered answer as the same answer', async () => {
    const server = await startServer('127.0.0.1');
    try {
      let clock = 0;
      const resolver = scriptedResolver([
        ['127.0.0.1', '127.0.0.3'],
        ['127.0.0.3', '127.0.0.1'],
      ]);
      const fetch = pinnedFetch(resolver, { admissionTtlMs: 1_000, now: () => clock });
      // Resolvers rotate their answers; the same set in another order must not cost a new pool.
      const url = `http://rotating.gatehouse.test:${server.port}/x`;
      for (let i = 0; i < 3; i += 1) await read(fetch, url);
      const before = server.sockets.length;
      clock += 1_000;
      for (let i = 0; i < 3; i += 1) await read(fetch, url);
      expect(resolver.calls).toBe(2);
      expect(server.sockets).toHaveLength(before);
    } finally {
      await server.close();
    }
  });
});
