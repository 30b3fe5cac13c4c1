// The only way out of Gatehouse to a URL a definition named. Each call admits the URL afresh (a new
// resolution, every address checked), then connects through a dispatcher of its own whose lookup answers with
// exactly the admitted addresses: no second resolution, so a name that rebinds after the check reaches
// nothing new. Redirects are refused, not followed (a redirect is a new destination nobody admitted, and it
// would carry the request's headers there). Bodies are capped while they stream.
//
// One dispatcher per call, closed when the body settles: a pooled socket would have been connected to an
// address checked for an earlier request. That costs connection reuse; correctness first.
import { Agent, Response, fetch as undiciFetch, type RequestInit } from 'undici';
import type { EgressPolicy } from '../policy/egress-policy.js';
import { admitUrl, MAX_ADMISSION_DEADLINE_MS } from '../policy/url-admission.policy.js';
import { isConnectablePort, portOf } from '../policy/port-range.js';
import type { Resolver } from '../resolver/resolver.port.js';
import { boundBody } from './bounded-body.js';
import { EgressError } from './egress.error.js';
import { createPinnedLookup } from './pinned-lookup.js';
import { classifyTransportFailure } from './transport-failure.js';

export interface PinnedFetchOptions {
  readonly policy: EgressPolicy;
  readonly resolver: Resolver;
  /** Bounds resolution, connecting, waiting for headers, and each wait between body chunks. */
  readonly timeoutMs: number;
  /** Bytes of (decoded) body a response may have; more is `response_too_large`. */
  readonly maxResponseBytes: number;
}

/** What a caller may set. `redirect` and `dispatcher` are the fetch's own decisions. */
export type PinnedRequestInit = Omit<RequestInit, 'dispatcher' | 'redirect' | 'window'>;

export type PinnedFetch = (url: string | URL, init?: PinnedRequestInit) => Promise<Response>;

// A 304 answers a conditional request and goes nowhere; every other 3xx points somewhere else.
const NOT_MODIFIED = 304;
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([204, 205, NOT_MODIFIED]);

const ignore = (): void => undefined;

function assertPositiveInteger(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new Error(`createPinnedFetch: ${name} must be a positive integer`);
}

function declaredLength(response: Response): number | null {
  const header = response.headers.get('content-length');
  if (header === null || !/^\d+$/.test(header.trim())) return null;
  return Number(header);
}

export function createPinnedFetch(options: PinnedFetchOptions): PinnedFetch {
  assertPositiveInteger('timeoutMs', options.timeoutMs);
  assertPositiveInteger('maxResponseBytes', options.maxResponseBytes);
  // It is admission's deadline too, and no timer waits longer.
  if (options.timeoutMs > MAX_ADMISSION_DEADLINE_MS)
    throw new Error(`createPinnedFetch: timeoutMs must be at most ${MAX_ADMISSION_DEADLINE_MS}`);
  const { policy, resolver, timeoutMs, maxResponseBytes } = options;

  return async function pinnedFetch(input, init = {}) {
    init.signal?.throwIfAborted();
    const href = typeof input === 'string' ? input : input.href;
    // A resolver that does not answer in time has not resolved the name, as a DNS timeout would not have.
    const admission = await admitUrl(href, policy, resolver, { deadlineMs: timeoutMs });
    if (!admission.ok) throw new EgressError(admission.reason, admission.origin);
    const { origin } = admission;
    const url = new URL(href);
    // Admission read the same text; checked again where the socket's port is taken from, so no path to a
    // connection skips it.
    if (!isConnectablePort(portOf(url))) throw new EgressError('invalid_port', origin);

    const agent = new Agent({
      connect: { lookup: createPinnedLookup(url.hostname, admission.addresses), timeout: timeoutMs },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      connections: 1,
    });
    const release = (outcome: 'complete' | 'failed'): void => {
      (outcome === 'complete' ? agent.close() : agent.destroy()).catch(ignore);
    };

    let response: Response;
    try {
      response = await undiciFetch(url, { ...init, redirect: 'manual', dispatcher: agent });
    } catch (error) {
      release('failed');
      if (init.signal?.aborted) throw error;
      throw new EgressError(classifyTransportFailure(error), origin);
    }

    const refuseWith = async (reason: 'redirect_refused' | 'response_too_large'): Promise<never> => {
      await response.body?.cancel().catch(ignore);
      release('failed');
      throw new EgressError(reason, origin);
    };
    if (response.status >= 300 && response.status < 400 && response.status !== NOT_MODIFIED) {
      return refuseWith('redirect_refused');
    }
    const declared = declaredLength(response);
    if (declared !== null && declared > maxResponseBytes) return refuseWith('response_too_large');

    const head = { status: response.status, statusText: response.statusText, headers: response.headers };
    if (response.body === null || NULL_BODY_STATUSES.has(response.status)) {
      await response.body?.cancel().catch(ignore);
      release('complete');
      return new Response(null, head);
    }
    const body = boundBody(response.body, {
      maxBytes: maxResponseBytes,
      origin,
      signal: init.signal,
      onSettled: release,
    });
    return new Response(body, head);
  };
}
