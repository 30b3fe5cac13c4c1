import { maySetHeader, headerOwnerOf } from '@gatehouse/catalog';
import { isEgressError } from '@gatehouse/egress';
import type { FetchLike } from '@modelcontextprotocol/client';
import type { AuthRefusal, Authenticator } from '../auth/authenticator.js';
import { McpTransportError } from './transport-error.js';

// The fetch the SDK's Streamable HTTP transport is given: every request goes through the pinned, redirect-refusing
// egress fetch (admission already ran; it connects only to the checked addresses), with Gatehouse's headers set
// here, per request, in one order: the SDK's own (session, protocol version, accept, content type), the
// definition's static headers, the principal header, the per-request hook's headers (trace context, decided from
// this request's JSON-RPC body), then the authenticator's, which override a static header of the same name.
// A 401 (or a 403 insufficient_scope: step-up) asks the authenticator once for fresh headers per refused
// generation, however many requests it refused together, and sends each refused request once more; a second
// refusal stands. The receive cap is the
// pinned fetch's (a JSON body whole, an event stream per event: decision 0041), applied before the SDK reads any
// of it. Errors name the origin only.

/** The upstream fetch: @gatehouse/egress's pinned fetch (the global fetch signature). */
export type UpstreamFetch = (url: string, init: RequestInit) => Promise<Response>;

/** What the per-request header hook sees: this request's method and its parsed JSON-RPC body (null for GET/DELETE). */
export interface OutgoingRequest {
  readonly method: string;
  readonly body: unknown;
}

/**
 * Headers for one request, decided from that request alone (never from ambient async context). Only names a
 * definition may not otherwise own are accepted: the gateway's (trace context) and names nothing else set.
 */
export type RequestHeaderHook = (request: OutgoingRequest) => Readonly<Record<string, string>>;

export interface McpFetchOptions {
  readonly upstream: UpstreamFetch;
  readonly origin: string;
  readonly staticHeaders: Readonly<Record<string, string>>;
  readonly principalHeader: { readonly name: string; readonly value: string } | null;
  readonly authenticator: Authenticator | null;
  readonly requestHeaders: RequestHeaderHook | null;
  /**
   * Called when a response body brings a message over the receive cap (the body then errors with
   * `McpTransportError('message_too_large')`): the transport drops the connection, as a stdio child's is.
   */
  readonly onMessageTooLarge?: () => void;
}

const UNAUTHORIZED = 401;
const FORBIDDEN = 403;
const INSUFFICIENT_SCOPE = /(?:^|[\s,])error\s*=\s*"?insufficient_scope"?(?:[\s,]|$)/i;

/**
 * A refusal of the credential: 401, or 403 with a Bearer challenge saying `insufficient_scope` (MCP's step-up:
 * the server names the wider scope it wants). Any other 403 is the server's answer, passed on.
 */
function refusesCredential(response: Response): boolean {
  if (response.status === UNAUTHORIZED) return true;
  if (response.status !== FORBIDDEN) return false;
  const challenge = response.headers.get('www-authenticate') ?? '';
  return /^\s*bearer\b/i.test(challenge) && INSUFFICIENT_SCOPE.test(challenge);
}

export function createMcpFetch(options: McpFetchOptions): FetchLike {
  const { origin } = options;
  let generation = 0;
  let refreshing: Promise<boolean> | null = null;
  let refreshedGeneration = -1;

  /** One fresh-headers attempt per refused generation, shared by every request that generation refused. */
  const refreshAfter = (refused: number, refusal: AuthRefusal): Promise<boolean> => {
    const authenticator = options.authenticator;
    if (authenticator === null) return Promise.resolve(false);
    if (refused < generation) return Promise.resolve(true);
    if (refreshedGeneration === refused && refreshing !== null) return refreshing;
    refreshedGeneration = refused;
    refreshing = authenticator.refresh(refusal).then(
      (fresh) => {
        if (fresh) generation += 1;
        return fresh;
      },
      () => false,
    );
    return refreshing;
  };

  const headersFor = async (
    sdkHeaders: Headers,
    body: unknown,
    method: string,
  ): Promise<Record<string, string>> => {
    const headers: Record<string, string> = {};
    sdkHeaders.forEach((value, name) => {
      headers[name.toLowerCase()] = value;
    });
    const set = (name: string, value: string): void => {
      headers[name.toLowerCase()] = value;
    };
    for (const [name, value] of Object.entries(options.staticHeaders)) {
      // The decoder already refused these; a description that still carries one is a bug upstream of here.
      if (!maySetHeader(name)) throw new Error(`static header ${name} is owned by the transport or protocol`);
      set(name, value);
    }
    const admitted = new Set(Object.keys(headers));
    if (options.principalHeader !== null) set(options.principalHeader.name, options.principalHeader.value);
    if (options.requestHeaders !== null) {
      for (const [name, value] of Object.entries(options.requestHeaders({ method, body }))) {
        const owner = headerOwnerOf(name);
        if ((owner !== null && owner !== 'gateway') || admitted.has(name.toLowerCase())) {
          throw new Error(`the request header hook may not set ${name}`);
        }
        set(name, value);
      }
    }
    if (options.authenticator !== null) {
      let authHeaders: Readonly<Record<string, string>>;
      try {
        authHeaders = await options.authenticator.headers();
      } catch (error) {
        if (error instanceof McpTransportError) throw error;
        throw new McpTransportError('authenticator_failed', origin);
      }
      for (const [name, value] of Object.entries(authHeaders)) {
        if (!maySetHeader(name)) throw new McpTransportError('authenticator_failed', origin, 'owned_header');
        set(name, value);
      }
    }
    return headers;
  };

  const send = async (url: string, init: RequestInit | undefined): Promise<Response> => {
    const method = init?.method ?? 'GET';
    const text = typeof init?.body === 'string' ? init.body : null;
    if (init?.body !== undefined && init.body !== null && text === null) {
      throw new Error('mcp fetch: only string bodies are sent');
    }
    const body = text === null ? null : parseJson(text);
    const sdkHeaders = new Headers(init?.headers);
    const attempt = async (): Promise<{ response: Response; sentWith: number }> => {
      const sentWith = generation;
      const headers = await headersFor(sdkHeaders, body, method);
      try {
        const response = await options.upstream(url, {
          method,
          headers,
          body: text,
          signal: init?.signal ?? null,
        });
        return { response, sentWith };
      } catch (error) {
        if (init?.signal?.aborted) throw error;
        if (isEgressError(error)) {
          if (error.reason === 'response_too_large') throw new McpTransportError('message_too_large', origin);
          throw new McpTransportError('egress_failed', origin, error.reason);
        }
        throw new McpTransportError('egress_failed', origin, 'connection_failed');
      }
    };
    const first = await attempt();
    if (!refusesCredential(first.response) || options.authenticator === null) return capped(first.response);
    const refusal = { challenge: first.response.headers.get('www-authenticate') };
    await first.response.body?.cancel().catch(() => undefined);
    if (!(await refreshAfter(first.sentWith, refusal))) throw new McpTransportError('auth_refused', origin);
    const second = await attempt();
    if (refusesCredential(second.response)) {
      await second.response.body?.cancel().catch(() => undefined);
      throw new McpTransportError('auth_refused', origin);
    }
    return capped(second.response);
  };

  /**
   * The body as the SDK reads it, with a message over the receive cap named as ours. Without this, an over-cap
   * event on an event stream only ends that stream (the SDK reports "disconnected" and the request waits for
   * its own timeout); with it the connection is dropped and every request on it fails now.
   */
  const capped = (response: Response): Response => {
    const source = response.body;
    if (source === null) return response;
    const reader = source.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { value, done } = await reader.read();
          if (done) controller.close();
          else controller.enqueue(value);
        } catch (error) {
          if (isEgressError(error) && error.reason === 'response_too_large') {
            controller.error(new McpTransportError('message_too_large', origin));
            options.onMessageTooLarge?.();
            return;
          }
          controller.error(error);
        }
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    });
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };

  return (input, init) => send(typeof input === 'string' ? input : input.href, init);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
