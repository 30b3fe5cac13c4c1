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
import { STATUS_CODES } from 'node:http';
import type { Dispatcher } from 'undici';
import type { EgressPolicy } from '../policy/egress-policy.js';
import { admitUrl, MAX_ADMISSION_DEADLINE_MS } from '../policy/url-admission.policy.js';
import { isConnectablePort, portOf } from '../policy/port-range.js';
import { createCachedResolver } from '../resolver/cached-resolver.js';
import type { Resolver } from '../resolver/resolver.port.js';
import { boundBody } from './bounded-body.js';
import { EgressError, type EgressFailureReason } from './egress-error.js';
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

interface Outgoing {
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body: string | Uint8Array | null;
}

// The global init, as undici's dispatcher takes it. The MCP SDK sends strings; any other BodyInit (form data,
// URLSearchParams, a Blob or a stream) is read through a Response, which also gives its default content type.
async function outgoingOf(init: PinnedRequestInit): Promise<Outgoing> {
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => {
    headers[name] = value;
  });
  const method = (init.method ?? 'GET').toUpperCase();
  const given = init.body ?? null;
  if (given === null || typeof given === 'string') return { method, headers, body: given };
  if (given instanceof Uint8Array) return { method, headers, body: given };
  const encoded = new Response(given);
  const type = encoded.headers.get('content-type');
  if (type !== null && headers['content-type'] === undefined) headers['content-type'] = type;
  return { method, headers, body: new Uint8Array(await encoded.arrayBuffer()) };
}

/** undici's header record (a repeated header as an array) as global Headers. */
function headersOf(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    else headers.append(name, value);
  }
  return headers;
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

    const outgoing = await outgoingOf(init);
    let upstream: Dispatcher.ResponseData;
    try {
      upstream = await dispatcher.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: outgoing.method as Dispatcher.HttpMethod,
        headers: outgoing.headers,
        body: outgoing.body,
        signal: init.signal ?? null,
      });
    } catch (error) {
      if (init.signal?.aborted) throw error;
      throw new EgressError(classifyTransportFailure(error), origin);
    }

    const status = upstream.statusCode;
    const headers = headersOf(upstream.headers);
    const refuseWith = (reason: EgressFailureReason): never => {
      upstream.body.on('error', ignore).destroy();
      throw new EgressError(reason, origin);
    };
    // No fetch Response can carry a status outside 200-599: a server that answers one answered nothing usable.
    if (status < 200 || status > 599) return refuseWith('connection_failed');
    if (status >= 300 && status < 400 && status !== NOT_MODIFIED) return refuseWith('redirect_refused');
    const perEvent = maxEventBytes !== undefined && isEventStream(headers);
    const declared = declaredLength(headers);
    if (!perEvent && declared !== null && declared > maxResponseBytes)
      return refuseWith('response_too_large');

    const head = { status, statusText: STATUS_CODES[status] ?? '', headers };
    if (NULL_BODY_STATUSES.has(status) || outgoing.method === 'HEAD') {
      // Read to its (empty) end rather than destroyed, so the connection goes back to the pool.
      await upstream.body.dump().catch(ignore);
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
