// The only way out of Gatehouse to a URL a definition named, in the shape of the fetch the MCP SDK takes
// (`(url, init) => Promise<Response>`, the global Request/Response types).
// - Every request is admitted: the URL's scheme, host, port and userinfo checked, and every address its name
//   resolves to judged by the policy. The name's answer is remembered for `admissionTtlMs` (0: asked every
//   time), so a changed answer is seen within that bound; a failed lookup is never remembered.
// - Connections are pooled per admitted origin, each pool pinned to the address set admission checked (its
//   lookup answers with exactly those addresses: no second resolution). A changed answer retires the pool and
//   pins a new one, so no new connection goes anywhere unchecked (origin-pools.ts; decision 0040).
// - Redirects are refused, not followed, whatever `init.redirect` asks: a redirect is a new destination nobody
//   admitted, and it would carry the request's headers there.
// - Bodies are bounded while they stream: a whole body by `maxResponseBytes`; with `maxEventBytes`, a
//   `text/event-stream` body per event instead, so a long-lived stream lives as long as it keeps sending; and
//   every body by an idle bound (`idleTimeoutMs`), never by a bound on its total duration (decision 0041).
// - Every error it throws is an EgressError naming the origin only, or the caller's own abort.
import { fetch as undiciFetch, type RequestInit as UndiciRequestInit } from 'undici';
import type { EgressPolicy } from '../policy/egress-policy.js';
import { admitUrl, MAX_ADMISSION_DEADLINE_MS } from '../policy/url-admission.policy.js';
import { isConnectablePort, portOf } from '../policy/port-range.js';
import { createCachedResolver } from '../resolver/cached.resolver.js';
import type { Resolver } from '../resolver/resolver.port.js';
import { boundBody } from './bounded-body.js';
import { EgressError } from './egress.error.js';
import { createOriginPools } from './origin-pools.js';
import { classifyTransportFailure } from './transport-failure.js';

export interface PinnedFetchOptions {
  readonly policy: EgressPolicy;
  readonly resolver: Resolver;
  /** Bounds admission (the lookup), connecting, and waiting for the response headers. */
  readonly timeoutMs: number;
  /** Bytes of (decoded) body a response may have; more is `response_too_large`. */
  readonly maxResponseBytes: number;
  /**
   * When set, a `text/event-stream` body is capped per event at this many bytes instead of as a whole (the
   * MCP receive cap); when absent, an event stream is a body like any other.
   */
  readonly maxEventBytes?: number;
  /** Longest wait for the next body bytes before the body is cut as `timeout`; `timeoutMs` when absent. */
  readonly idleTimeoutMs?: number;
  /** How long a name's answer is used before it is asked again; default 30 s, at most 300 s, 0 = every request. */
  readonly admissionTtlMs?: number;
  /** Connections one origin's pool may hold open at once; default 16. */
  readonly connectionsPerOrigin?: number;
  /** Origins pooled at once (least recently used retired first); default 64. */
  readonly maxOrigins?: number;
  /** Monotonic milliseconds for the admission TTL (tests); `performance.now` when absent. */
  readonly now?: () => number;
}

/** What a caller may set: the global fetch's init. `redirect` is ignored: a redirect is always refused. */
export type PinnedRequestInit = RequestInit;

export interface PinnedFetch {
  (url: string | URL, init?: PinnedRequestInit): Promise<Response>;
  /** Ends every pooled connection, exchanges in flight included. The fetch is not to be used afterwards. */
  close(): Promise<void>;
}

export const DEFAULT_ADMISSION_TTL_MS = 30_000;
export const MAX_ADMISSION_TTL_MS = 300_000;
export const DEFAULT_CONNECTIONS_PER_ORIGIN = 16;
export const DEFAULT_MAX_ORIGINS = 64;

// A 304 answers a conditional request and goes nowhere; every other 3xx points somewhere else.
const NOT_MODIFIED = 304;
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([204, 205, NOT_MODIFIED]);

const ignore = (): void => undefined;

function assertInteger(name: string, value: number, min: number, max: number): void {
  if (!Number.isSafeInteger(value) || value < min)
    throw new Error(
      `createPinnedFetch: ${name} must be a ${min === 0 ? 'non-negative' : 'positive'} integer`,
    );
  if (value > max) throw new Error(`createPinnedFetch: ${name} must be at most ${max}`);
}

function declaredLength(headers: Headers): number | null {
  const header = headers.get('content-length');
  if (header === null || !/^\d+$/.test(header.trim())) return null;
  return Number(header);
}

function isEventStream(headers: Headers): boolean {
  const type = headers.get('content-type');
  return type !== null && type.split(';', 1)[0]?.trim().toLowerCase() === 'text/event-stream';
}

// The global init, as undici's own fetch takes it (the same fields; the types are two copies of one library).
function forwardedInit(init: PinnedRequestInit): UndiciRequestInit {
  const forwarded: UndiciRequestInit = {
    method: init.method,
    headers: init.headers as UndiciRequestInit['headers'],
    body: init.body as UndiciRequestInit['body'],
    signal: init.signal,
    keepalive: init.keepalive,
  };
  const { duplex } = init as { readonly duplex?: unknown };
  if (duplex === 'half') forwarded.duplex = 'half';
  return forwarded;
}

export function createPinnedFetch(options: PinnedFetchOptions): PinnedFetch {
  const { policy, timeoutMs, maxResponseBytes, maxEventBytes } = options;
  assertInteger('timeoutMs', timeoutMs, 1, MAX_ADMISSION_DEADLINE_MS);
  assertInteger('maxResponseBytes', maxResponseBytes, 1, Number.MAX_SAFE_INTEGER);
  if (maxEventBytes !== undefined) assertInteger('maxEventBytes', maxEventBytes, 1, Number.MAX_SAFE_INTEGER);
  const idleTimeoutMs = options.idleTimeoutMs ?? timeoutMs;
  assertInteger('idleTimeoutMs', idleTimeoutMs, 1, MAX_ADMISSION_DEADLINE_MS);
  const admissionTtlMs = options.admissionTtlMs ?? DEFAULT_ADMISSION_TTL_MS;
  assertInteger('admissionTtlMs', admissionTtlMs, 0, MAX_ADMISSION_TTL_MS);
  const connectionsPerOrigin = options.connectionsPerOrigin ?? DEFAULT_CONNECTIONS_PER_ORIGIN;
  assertInteger('connectionsPerOrigin', connectionsPerOrigin, 1, 1024);
  const maxOrigins = options.maxOrigins ?? DEFAULT_MAX_ORIGINS;
  assertInteger('maxOrigins', maxOrigins, 1, 65_536);

  const resolver = createCachedResolver(options.resolver, {
    ttlMs: admissionTtlMs,
    maxNames: maxOrigins,
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  const pools = createOriginPools({ maxOrigins, connectionsPerOrigin, timeoutMs, idleTimeoutMs });

  async function pinnedFetch(input: string | URL, init: PinnedRequestInit = {}): Promise<Response> {
    init.signal?.throwIfAborted();
    const href = typeof input === 'string' ? input : input.href;
    // A resolver that does not answer in time has not resolved the name, as a DNS timeout would not have.
    const admission = await admitUrl(href, policy, resolver, { deadlineMs: timeoutMs });
    if (!admission.ok) {
      if (admission.origin !== null) pools.retire(admission.origin);
      throw new EgressError(admission.reason, admission.origin);
    }
    const { origin } = admission;
    const url = new URL(href);
    // Admission read the same text; checked again where the socket's port is taken from, so no path to a
    // connection skips it.
    if (!isConnectablePort(portOf(url))) throw new EgressError('invalid_port', origin);
    const dispatcher = pools.poolFor(origin, url.hostname, admission.addresses);

    let upstream: Awaited<ReturnType<typeof undiciFetch>>;
    try {
      upstream = await undiciFetch(url, { ...forwardedInit(init), redirect: 'manual', dispatcher });
    } catch (error) {
      if (init.signal?.aborted) throw error;
      throw new EgressError(classifyTransportFailure(error), origin);
    }

    const headers = new Headers();
    for (const [name, value] of upstream.headers) headers.append(name, value);
    const refuseWith = async (reason: 'redirect_refused' | 'response_too_large'): Promise<never> => {
      await upstream.body?.cancel().catch(ignore);
      throw new EgressError(reason, origin);
    };
    if (upstream.status >= 300 && upstream.status < 400 && upstream.status !== NOT_MODIFIED) {
      return refuseWith('redirect_refused');
    }
    const perEvent = maxEventBytes !== undefined && isEventStream(headers);
    const declared = declaredLength(headers);
    if (!perEvent && declared !== null && declared > maxResponseBytes)
      return refuseWith('response_too_large');

    const head = { status: upstream.status, statusText: upstream.statusText, headers };
    if (upstream.body === null || NULL_BODY_STATUSES.has(upstream.status)) {
      await upstream.body?.cancel().catch(ignore);
      return new Response(null, head);
    }
    const body = boundBody(upstream.body, {
      maxBytes: perEvent ? maxEventBytes : maxResponseBytes,
      perEvent,
      idleTimeoutMs,
      origin,
      signal: init.signal,
    });
    return new Response(body as ReadableStream<Uint8Array>, head);
  }

  return Object.assign(pinnedFetch, { close: () => pools.close() });
}
