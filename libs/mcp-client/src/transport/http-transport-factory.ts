import type { AdmittedHttpTransport } from '@gatehouse/contracts';
import {
  createFixedResolver,
  createPinnedFetch,
  type EgressPolicy,
  type PinnedFetch,
} from '@gatehouse/egress';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Authenticator } from '../auth/authenticator.js';
import { createMcpFetch, type RequestHeaderHook } from './mcp-fetch.js';

// Streamable HTTP, constructed only from an admitted description: the pinned egress fetch is pinned to the
// addresses the API checked (a fixed resolver answering the URL's host with exactly those), re-checked under the
// lease's own flags (loopback for development, the private ranges this destination was admitted under). The
// operator's denylist is never in a lease; it was applied by the API when it admitted these addresses.

export interface HttpTransportOptions {
  readonly authenticator: Authenticator | null;
  readonly requestHeaders: RequestHeaderHook | null;
  /** Bytes one message may have: a JSON body whole, one event of an event stream. */
  readonly receiveCapBytes: number;
  /** Bounds admission, connecting and the response head (the pinned fetch's clock). */
  readonly requestTimeoutMs: number;
  /** Longest silence an open body (a standalone SSE stream) may keep before it is cut. */
  readonly streamIdleTimeoutMs: number;
}

export interface HttpTransportHandle {
  readonly transport: StreamableHTTPClientTransport;
  readonly origin: string;
  /** Ends the pinned fetch's pooled connections; closing the transport does too (idempotent). */
  readonly release: () => Promise<void>;
}

/** The pinned fetch for one admitted destination: its checked addresses only, under the lease's own flags. */
export function pinnedFetchFor(
  description: AdmittedHttpTransport,
  options: Pick<HttpTransportOptions, 'receiveCapBytes' | 'requestTimeoutMs' | 'streamIdleTimeoutMs'>,
): PinnedFetch {
  const policy: EgressPolicy = {
    allowInsecureLoopback: description.allowInsecureLoopback,
    operatorDenylist: { cidrs: [], hostnames: [] },
    operatorAllowedPrivateRanges: description.privateRanges,
    tenantOptedInPrivateRanges: description.privateRanges,
  };
  const host = new URL(description.url).hostname.toLowerCase().replace(/\.$/, '');
  return createPinnedFetch({
    policy,
    resolver: createFixedResolver({ [host]: description.addresses }),
    timeoutMs: options.requestTimeoutMs,
    idleTimeoutMs: options.streamIdleTimeoutMs,
    // The receive cap (decision 0041): a JSON body whole, an event stream per event.
    maxResponseBytes: options.receiveCapBytes,
    maxEventBytes: options.receiveCapBytes,
  });
}

export function createHttpTransport(
  description: AdmittedHttpTransport,
  options: HttpTransportOptions,
): HttpTransportHandle {
  const pinned = pinnedFetchFor(description, options);
  // Set once the transport exists (the fetch is made first, and drops the transport it serves).
  const served: { transport?: StreamableHTTPClientTransport } = {};
  const fetch = createMcpFetch({
    upstream: (url, init) => pinned(url, init),
    origin: description.origin,
    staticHeaders: description.headers,
    principalHeader: description.principalHeader,
    authenticator: options.authenticator,
    requestHeaders: options.requestHeaders,
    // A message over the receive cap drops the connection (as on stdio): the requests on it fail now.
    onMessageTooLarge: () => void served.transport?.close(),
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
  served.transport = transport;
  // The pool is this connection's own (decision 0049): it closes with the transport, whoever closes that (the
  // SDK client, the session, a supervisor dropping the connection), and once only.
  let released: Promise<void> | null = null;
  const release = (): Promise<void> => (released ??= pinned.close());
  const closeTransport = transport.close.bind(transport);
  transport.close = async () => {
    try {
      await closeTransport();
    } finally {
      await release();
    }
  };
  return { transport, origin: description.origin, release };
}
