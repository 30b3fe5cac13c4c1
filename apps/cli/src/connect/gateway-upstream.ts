import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import {
  backoffDelayMs,
  connectAdmitted,
  type AdmittedSession,
  type Authenticator,
  type BackoffPolicy,
  type ConnectFailure,
} from '@gatehouse/mcp-client';
import { isLoopbackHost } from '../api-client/api-target';
import { CliError, EXIT } from '../cli-io';

// The upstream side of `gatehouse connect`: one Streamable HTTP session to the gateway URL the user named, through
// libs/mcp-client's one way to connect (admit-then-construct over the pinned egress fetch). The user chose the
// destination, so the description admits exactly the addresses its host resolves to now (private ones included,
// each as a single-address range; cloud metadata never), plain http only to loopback. The token goes in an
// authenticator, so it is a header on each request and never part of a description, a URL or a log line.
// A lost session is replaced with bounded exponential backoff (decision 0115).

export interface GatewayUpstreamOptions {
  readonly url: string;
  readonly token: string;
  /** Attempts and waits for the first connection; a broken one is retried with `reconnect`. */
  readonly initial: BackoffPolicy;
  readonly reconnect: BackoffPolicy;
  /** Told of each new session before anyone uses it (the bridge hangs its notification handlers there). */
  readonly onSession: (session: AdmittedSession, reconnected: boolean) => void;
  /** One line on stderr (never a token or a URL path). */
  readonly log: (line: string) => void;
  readonly clientInfo: { readonly name: string; readonly version: string };
  /**
   * While a request is in flight, the gateway is pinged this often (and each ping bounded by it): a session the
   * gateway lost mid-call would otherwise leave the call waiting for an answer that never comes (the SDK client
   * does not fail a request whose response stream ended without one).
   */
  readonly keepaliveMs: number;
}

/** A JSON-RPC error answer (the gateway is there and said no), not a lost connection or a timeout. */
function answeredByGateway(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  // -32000 is the SDK's "connection closed", -32001 its request timeout; HTTP statuses are positive.
  return typeof code === 'number' && code < 0 && code !== -32000 && code !== -32001;
}

/** A bearer token as a header; a 401 is not retried with the same token (there is no other). */
function bearer(token: string): Authenticator {
  return { headers: async () => ({ authorization: `Bearer ${token}` }), refresh: async () => false };
}

async function addressesOf(hostname: string): Promise<string[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) return [host];
  try {
    return [
      ...new Set((await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address)),
    ].slice(0, 64);
  } catch {
    return [];
  }
}

function rangeOf(address: string): string {
  return isIP(address) === 6 ? `${address}/128` : `${address}/32`;
}

/** What a refusal means to the person running connect, and the exit code it ends with. */
export function connectErrorOf(failure: ConnectFailure, origin: string): CliError {
  switch (failure.failureClass) {
    case 'auth':
      return new CliError(`the gateway at ${origin} refused the token (GATEHOUSE_TOKEN)`, EXIT.refused);
    case 'protocol':
      return new CliError(`the gateway at ${origin} speaks no MCP version this CLI does`, EXIT.refused);
    case 'config':
      return new CliError(
        `cannot connect to ${origin}: ${failure.reason}${failure.detail !== null ? ` (${failure.detail})` : ''}`,
        EXIT.unreachable,
      );
    default:
      return new CliError(`cannot reach the gateway at ${origin} (${failure.reason})`, EXIT.unreachable);
  }
}

export class GatewayUpstream {
  private live: AdmittedSession | null = null;
  private pending: Promise<AdmittedSession> | null = null;
  private closed = false;
  private everConnected = false;
  private readonly wake = new AbortController();
  private inFlight = 0;
  private keepaliveTimer: NodeJS.Timeout | null = null;
  private pinging = false;
  readonly origin: string;

  constructor(private readonly options: GatewayUpstreamOptions) {
    this.origin = new URL(options.url).origin;
  }

  /** The live session, connecting (with backoff) when there is none. Throws a CliError when it cannot. */
  async session(): Promise<AdmittedSession> {
    if (this.closed) throw new CliError('closed', EXIT.ok);
    if (this.live !== null && !this.live.isClosed) return this.live;
    this.pending ??= this.connectWithBackoff(
      this.everConnected ? this.options.reconnect : this.options.initial,
    ).finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  /** The session failed under a request (not a JSON-RPC error: the connection): drop it and reconnect at once. */
  broken(session: AdmittedSession): void {
    if (this.live !== session) return;
    this.live = null;
    void session.close().catch(() => undefined);
    if (this.closed) return;
    this.options.log(`gatehouse: lost the gateway session at ${this.origin}; reconnecting`);
    this.session().catch((error: unknown) => {
      this.options.log(
        `gatehouse: ${error instanceof Error ? error.message : 'reconnect failed'}; will retry on the next request`,
      );
    });
  }

  /** Runs one forwarded request, keeping the session checked while any is in flight. */
  async track<T>(work: () => Promise<T>): Promise<T> {
    this.inFlight += 1;
    this.keepaliveTimer ??= setInterval(() => void this.keepalive(), this.options.keepaliveMs);
    try {
      return await work();
    } finally {
      this.inFlight -= 1;
      if (this.inFlight === 0 && this.keepaliveTimer !== null) {
        clearInterval(this.keepaliveTimer);
        this.keepaliveTimer = null;
      }
    }
  }

  private async keepalive(): Promise<void> {
    const session = this.live;
    if (session === null || this.pinging || this.closed) return;
    this.pinging = true;
    try {
      await session.ping({ timeoutMs: this.options.keepaliveMs });
    } catch (error) {
      // Closing the session fails every request still waiting on it, so the bridge answers them.
      if (!answeredByGateway(error)) this.broken(session);
    } finally {
      this.pinging = false;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wake.abort();
    if (this.keepaliveTimer !== null) clearInterval(this.keepaliveTimer);
    this.keepaliveTimer = null;
    const live = this.live;
    this.live = null;
    await live?.close().catch(() => undefined);
  }

  private async connectWithBackoff(policy: BackoffPolicy): Promise<AdmittedSession> {
    const url = new URL(this.options.url);
    let last: CliError = new CliError(`cannot reach the gateway at ${this.origin}`, EXIT.unreachable);
    for (let attempt = 1; attempt <= policy.maxAttempts && !this.closed; attempt += 1) {
      if (attempt > 1) await this.pause(backoffDelayMs(policy, attempt - 1, Math.random));
      if (this.closed) break;
      const addresses = await addressesOf(url.hostname);
      if (addresses.length === 0) {
        last = new CliError(`cannot resolve ${url.hostname}`, EXIT.unreachable);
        continue;
      }
      const loopback = isLoopbackHost(url.hostname) || addresses.every((address) => isLoopbackHost(address));
      const result = await connectAdmitted(
        {
          kind: 'http',
          url: url.href,
          origin: `${url.protocol}//${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`,
          addresses,
          allowInsecureLoopback: loopback,
          privateRanges: addresses.map(rangeOf),
          headers: {},
          principalHeader: null,
          headersHelper: null,
          startupTimeoutMs: 30_000,
        },
        {
          serverName: 'gatehouse-gateway',
          clientInfo: this.options.clientInfo,
          defaultStartupTimeoutMs: 30_000,
          searchPath: '/nonexistent',
          authenticator: bearer(this.options.token),
        },
      );
      if (result.ok) {
        const session = result.session;
        const reconnected = this.everConnected;
        this.everConnected = true;
        this.live = session;
        session.client.onclose = () => this.broken(session);
        this.options.onSession(session, reconnected);
        if (reconnected) this.options.log(`gatehouse: reconnected to ${this.origin}`);
        return session;
      }
      last = connectErrorOf(result, this.origin);
      if (result.failureClass !== 'transient') break;
    }
    throw last;
  }

  /** A backoff wait that ends early when the bridge closes. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
