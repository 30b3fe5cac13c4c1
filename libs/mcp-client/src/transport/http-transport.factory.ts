import type { AdmittedHttpTransport } from '@gatehouse/contracts';
import { createFixedResolver, createPinnedFetch, type EgressPolicy } from '@gatehouse/egress';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Authenticator } from '../auth/authenticator.js';
import { createMcpFetch, type RequestHeaderHook, type UpstreamFetch } from './mcp-fetch.js';

// Streamable HTTP, constructed only from an admitted description: the pinned egress fetch is pinned to the
// addresses the API checked (a fixed resolver answering the URL's host with exactly those), re-checked under the
// lease's own flags (loopback for development, the private ranges this destination was admitted under). The
// operator's denylist is never in a lease; it was applied by the API when it admitted these addresses.

export interface HttpTransportOptions {
  readonly authenticator: Authenticator | null;
  readonly requestHeaders: RequestHeaderHook | null;
  readonly receiveCapBytes: number;
  /** Bounds connecting, the response head and each wait between body chunks (the pinned fetch's clock). */
  readonly requestTimeoutMs: number;
}

export interface HttpTransportHandle {
  readonly transport: StreamableHTTPClientTransport;
  readonly origin: string;
}

/** The fetch the pinned fetch becomes for one admitted destination. */
export function pinnedUpstreamFor(
  description: AdmittedHttpTransport,
  requestTimeoutMs: number,
): UpstreamFetch {
  const policy: EgressPolicy = {
    allowInsecureLoopback: description.allowInsecureLoopback,
    operatorDenylist: { cidrs: [], hostnames: [] },
    operatorAllowedPrivateRanges: description.privateRanges,
    tenantOptedInPrivateRanges: description.privateRanges,
  };
  const host = new URL(description.url).hostname.toLowerCase().replace(/\.$/, '');
  const pinned = createPinnedFetch({
    policy,
    resolver: createFixedResolver({ [host]: description.addresses }),
    timeoutMs: requestTimeoutMs,
    // The transport's receive cap bounds each message; this whole-body cap must not end a long SSE stream.
    maxResponseBytes: Number.MAX_SAFE_INTEGER,
  });
  return (url, init) => pinned(url, init);
}

export function createHttpTransport(
  description: AdmittedHttpTransport,
  options: HttpTransportOptions,
): HttpTransportHandle {
  const fetch = createMcpFetch({
    upstream: pinnedUpstreamFor(description, options.requestTimeoutMs),
    origin: description.origin,
    staticHeaders: description.headers,
    principalHeader: description.principalHeader,
    authenticator: options.authenticator,
    requestHeaders: options.requestHeaders,
    receiveCapBytes: options.receiveCapBytes,
  });
  const transport = new StreamableHTTPClientTransport(new URL(description.url), {
    fetch,
    // A redirect is a destination nobody admitted: the pinned fetch refuses it before the SDK could follow it.
    reconnectionOptions: {
      maxReconnectionDelay: 30_000,
      initialReconnectionDelay: 1_000,
      reconnectionDelayGrowFactor: 1.5,
      maxRetries: 2,
    },
  });
  return { transport, origin: description.origin };
}
