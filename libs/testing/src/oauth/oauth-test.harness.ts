// Test plumbing for the OAuth tests (libs/oauth and the API): the real authorization server (oidc-provider in its own node process), a
// protected-resource metadata server on loopback whose documents each test sets, a browser stand-in that follows
// a sign-in's redirects with cookies, and the egress lib's pinned fetch set up for loopback.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createFixedResolver, createPinnedFetch, type PinnedFetch } from '@gatehouse/egress';

export interface ProviderStats {
  readonly tokenRequests: number;
  readonly refreshGrants: number;
  readonly refreshSuccesses: number;
  readonly codeGrants: number;
}

export interface ProviderClient {
  readonly client_id: string;
  readonly client_secret?: string;
  readonly redirect_uris: readonly string[];
  readonly grant_types?: readonly string[];
  readonly response_types?: readonly string[];
  readonly token_endpoint_auth_method?: string;
}

export class OidcProviderProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly issuer: string,
  ) {}

  static async start(options: {
    readonly clients: readonly ProviderClient[];
    readonly accessTokenTtlSeconds?: number;
  }): Promise<OidcProviderProcess> {
    const script = join(__dirname, 'oidc-provider.server.mjs');
    const child = spawn(process.execPath, [script, JSON.stringify(options)], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test' },
    });
    child.stderr?.resume();
    const lines = createInterface({ input: child.stdout! });
    const issuer = await new Promise<string>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`oidc-provider exited early (${code})`)));
      lines.once('line', (line) => resolve((JSON.parse(line) as { issuer: string }).issuer));
    });
    return new OidcProviderProcess(child, issuer);
  }

  async stats(): Promise<ProviderStats> {
    const response = await fetch(`${this.issuer}/__test/stats`);
    return (await response.json()) as ProviderStats;
  }

  async configure(config: { readonly tokenDelayMs?: number; readonly resetStats?: boolean }): Promise<void> {
    await fetch(`${this.issuer}/__test/config`, { method: 'POST', body: JSON.stringify(config) });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** A loopback HTTP server whose routes a test sets: path -> JSON document (status 200) or a handler. */
export class LoopbackDocuments {
  private readonly routes = new Map<string, Handler>();
  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<LoopbackDocuments> {
    let self: LoopbackDocuments | null = null;
    const server = createServer((request, response) => {
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      const handler = self?.routes.get(path);
      if (!handler) {
        response.writeHead(404).end();
        return;
      }
      handler(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    self = new LoopbackDocuments(server, `http://127.0.0.1:${port}`);
    return self;
  }

  json(path: string, document: unknown): void {
    this.routes.set(path, (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(document));
    });
  }

  clear(): void {
    this.routes.clear();
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The pinned fetch as the API builds it, with the operator's test-only insecure loopback on. */
export function loopbackPinnedFetch(overrides: { readonly timeoutMs?: number } = {}): PinnedFetch {
  return createPinnedFetch({
    policy: {
      allowInsecureLoopback: true,
      operatorDenylist: { cidrs: [], hostnames: [] },
      operatorAllowedPrivateRanges: [],
      tenantOptedInPrivateRanges: [],
    },
    resolver: createFixedResolver({ localhost: ['127.0.0.1'] }),
    timeoutMs: overrides.timeoutMs ?? 10_000,
    maxResponseBytes: 1_000_000,
  });
}

/**
 * Plays the user's browser: follows the authorization server's redirects (keeping its cookies) until it is
 * sent to `redirectUri`, and returns that URL (code, state, iss) without visiting it.
 */
export async function followSignIn(authorizationUrl: string, redirectUri: string): Promise<string> {
  const cookies = new Map<string, string>();
  let next = authorizationUrl;
  for (let hop = 0; hop < 10; hop += 1) {
    if (next.startsWith(redirectUri)) return next;
    const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(next, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const separator = pair!.indexOf('=');
      cookies.set(pair!.slice(0, separator).trim(), pair!.slice(separator + 1));
    }
    const location = response.headers.get('location');
    await response.body?.cancel();
    if (!location) throw new Error(`sign-in stopped with HTTP ${response.status}`);
    next = new URL(location, next).href;
  }
  throw new Error('too many redirects');
}
