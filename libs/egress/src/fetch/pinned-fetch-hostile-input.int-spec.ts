// Hostile ports and resolvers (docs/architecture/egress.md), through the pinned fetch against a real HTTP
// server on loopback: a port outside 1-65535 and a resolver that throws, rejects, answers nonsense or never
// answers each end in a typed EgressError, and no socket is opened at all. Sockets are observed through
// Node's and undici's own diagnostics channels, so "no connection" is what the runtime reports, not what our
// code says about itself.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EgressPolicy } from '../policy/egress-policy';
import type { ResolveResult, Resolver } from '../resolver/resolver.port';
import { EgressError } from './egress-error';
import { createPinnedFetch } from './pinned-fetch';

const devPolicy: EgressPolicy = {
  allowInsecureLoopback: true,
  operatorDenylist: { cidrs: [], hostnames: [] },
  operatorAllowedPrivateRanges: [],
  tenantOptedInPrivateRanges: [],
};

const SECRET_TEXT = 'resolver said 10.1.2.3 via dns.internal';

interface Observed {
  /** Every client socket Node created (`net.client.socket`). */
  sockets: number;
  /** The port of every connection undici set out to make (`undici:client:beforeConnect`). */
  connectPorts: string[];
}

const observed: Observed = { sockets: 0, connectPorts: [] };
const onSocket = (): void => {
  observed.sockets += 1;
};
const onBeforeConnect = (message: unknown): void => {
  const port = (message as { connectParams?: { port?: unknown } }).connectParams?.port;
  observed.connectPorts.push(String(port));
};

let server: Server;
let port: number;
let hits: string[];

beforeAll(() => {
  subscribe('net.client.socket', onSocket);
  subscribe('undici:client:beforeConnect', onBeforeConnect);
});

afterAll(() => {
  unsubscribe('net.client.socket', onSocket);
  unsubscribe('undici:client:beforeConnect', onBeforeConnect);
});

beforeEach(async () => {
  hits = [];
  observed.sockets = 0;
  observed.connectPorts = [];
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});

afterEach(async () => {
  server.closeAllConnections();
  server.close();
  await once(server, 'close');
});

function resolverDoing(answer: () => unknown): Resolver & { calls: number } {
  const resolver = {
    calls: 0,
    resolve(): Promise<ResolveResult> {
      resolver.calls += 1;
      return answer() as Promise<ResolveResult>;
    },
  };
  return resolver;
}

const loopback = (): Resolver & { calls: number } =>
  resolverDoing(() => Promise.resolve({ ok: true, addresses: ['127.0.0.1'] }));

async function failureOf(work: Promise<unknown>): Promise<EgressError> {
  const error = await work.then(
    () => new Error('expected a refusal'),
    (e: unknown) => e,
  );
  if (!(error instanceof EgressError)) throw error;
  return error;
}

const fetchWith = (resolver: Resolver, timeoutMs = 10_000) =>
  createPinnedFetch({ policy: devPolicy, resolver, timeoutMs, maxResponseBytes: 1024 });

describe('the pinned fetch and ports', () => {
  it('reaches the server on its own port (the observation works)', async () => {
    const response = await fetchWith(loopback())(`http://svc.gatehouse.test:${port}/hello`);
    expect(await response.text()).toBe('hello');
    expect(hits).toEqual(['/hello']);
    expect(observed.connectPorts).toEqual([String(port)]);
    expect(observed.sockets).toBe(1);
  });

  it.each([
    ['a name', 'http://svc.gatehouse.test:0/hello', 'http://svc.gatehouse.test:0'],
    [
      'a name, port written with leading zeros',
      'http://svc.gatehouse.test:000/hello',
      'http://svc.gatehouse.test:0',
    ],
    ['an IPv4 literal', 'http://127.0.0.1:0/hello', 'http://127.0.0.1:0'],
    ['an IPv6 literal', 'http://[::1]:0/hello', 'http://[::1]:0'],
    ['localhost', 'http://localhost:0/hello', 'http://localhost:0'],
  ])('refuses port 0 on %s with invalid_port and opens no socket', async (_, url, origin) => {
    const resolver = loopback();
    const refusal = await failureOf(fetchWith(resolver)(url));
    expect(refusal).toMatchObject({ reason: 'invalid_port', origin });
    expect(resolver.calls).toBe(0);
    expect(observed.sockets).toBe(0);
    expect(observed.connectPorts).toEqual([]);
  });

  it('refuses a URL object whose port was set to 0 after parsing', async () => {
    const url = new URL(`http://svc.gatehouse.test:${port}/hello`);
    url.port = '0';
    const refusal = await failureOf(fetchWith(loopback())(url));
    expect(refusal.reason).toBe('invalid_port');
    expect(observed.sockets).toBe(0);
  });

  it.each(['65536', '70000', '-1'])(
    'refuses port %s (no URL parser reads it) as invalid_url',
    async (text) => {
      const refusal = await failureOf(fetchWith(loopback())(`http://svc.gatehouse.test:${text}/hello`));
      expect(refusal).toMatchObject({ reason: 'invalid_url', origin: null });
      expect(observed.sockets).toBe(0);
    },
  );
});

describe('the pinned fetch and a resolver that fails', () => {
  it.each<[string, () => unknown]>([
    [
      'throws',
      () => {
        throw new Error(SECRET_TEXT);
      },
    ],
    ['rejects', () => Promise.reject(new Error(SECRET_TEXT))],
    ['rejects with a non-Error', () => Promise.reject(SECRET_TEXT)],
    ['answers undefined', () => Promise.resolve(undefined)],
    ['answers addresses as a string', () => Promise.resolve({ ok: true, addresses: '127.0.0.1' })],
    ['answers a numeric address', () => Promise.resolve({ ok: true, addresses: [0x7f000001] })],
    ['answers a bare array', () => Promise.resolve(['127.0.0.1'])],
  ])('refuses typed (unresolvable) when the resolver %s, and connects nowhere', async (_, answer) => {
    const resolver = resolverDoing(answer);
    const refusal = await failureOf(fetchWith(resolver)(`http://svc.gatehouse.test:${port}/hello`));
    expect(refusal).toMatchObject({ reason: 'unresolvable', origin: `http://svc.gatehouse.test:${port}` });
    expect(refusal.message).not.toContain('10.1.2.3');
    expect(refusal.cause).toBeUndefined();
    expect(resolver.calls).toBe(1);
    expect(hits).toEqual([]);
    expect(observed.sockets).toBe(0);
  });

  it('refuses a resolver that never answers once its timeout passes, and connects nowhere', async () => {
    const silent = resolverDoing(() => new Promise<never>(() => undefined));
    const refusal = await failureOf(fetchWith(silent, 50)(`http://svc.gatehouse.test:${port}/hello`));
    expect(refusal.reason).toBe('unresolvable');
    expect(hits).toEqual([]);
    expect(observed.sockets).toBe(0);
  });
});
