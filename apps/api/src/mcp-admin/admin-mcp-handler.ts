import {
  createMcpHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type Server,
} from '@modelcontextprotocol/server';

// Admin MCP's one handler for both protocol eras on one URL (decision 0145), each request served by a Server of
// its own. A 2026-07-28 request (and every request that revision refuses: a bad envelope, a header that is not the
// body's) goes to SDK v2's per-request handler, which answers `server/discover`, checks the envelope and the
// Mcp-Method/Mcp-Name headers and answers JSON. A 2025 request goes to the stateless leg below: a fresh Server and
// transport per POST, JSON answers, no session id, as admin MCP has served 2025 clients since decision 0112. The
// SDK's own `legacy: 'stateless'` leg is not used: its transport answers every 2025 request as an SSE stream whose
// head is written before the call has run, so a refusal's Retry-After could not reach the head and a 2025 client
// that got JSON would get a stream. The routing predicate is the SDK's own (`isLegacyRequest`, the same
// classification the handler runs), so the two legs never disagree about a request.

export interface AdminMcpHandler {
  /** Serves one authenticated request; `body` is the parsed JSON (undefined when there was none). */
  fetch(request: Request, body: unknown, authInfo: AuthInfo): Promise<Response>;
  /** Ends the 2026 exchanges in flight (the 2025 leg holds nothing between requests). */
  close(): Promise<void>;
}

/** A 2025 client that went away before its JSON answer: nothing is left to write to. */
const GONE = 499;

function whenGone(signal: AbortSignal | undefined): Promise<Response> {
  return new Promise((resolve) => {
    if (signal === undefined) return;
    if (signal.aborted) resolve(new Response(null, { status: GONE }));
    else
      signal.addEventListener('abort', () => resolve(new Response(null, { status: GONE })), { once: true });
  });
}

async function serveLegacy(
  server: Server,
  request: Request,
  body: unknown,
  authInfo: AuthInfo,
): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  try {
    await server.connect(transport);
    // The transport never settles a JSON answer once it is closed, so the exchange also ends with its client;
    // closing the transport then aborts the call under it (the handler's signal).
    return await Promise.race([
      transport.handleRequest(request, { ...(body === undefined ? {} : { parsedBody: body }), authInfo }),
      whenGone(request.signal),
    ]);
  } finally {
    void transport.close().catch(() => undefined);
    void server.close().catch(() => undefined);
  }
}

export function createAdminMcpHandler(
  createServer: () => Server,
  onError: (error: Error) => void,
): AdminMcpHandler {
  // JSON answers on the 2026 leg too: `auto` answers one JSON body unless a handler sends something before its
  // result, and the admin server never does, so the head waits for the call's result and its Retry-After can still
  // be set. (`json` would say the same, but the SDK warns on the console about it at every start.)
  const modern = createMcpHandler(() => createServer(), {
    legacy: 'reject',
    responseMode: 'auto',
    onerror: onError,
  });
  return {
    fetch: async (request, body, authInfo) =>
      (await isLegacyRequest(request, body))
        ? serveLegacy(createServer(), request, body, authInfo)
        : modern.fetch(request, { ...(body === undefined ? {} : { parsedBody: body }), authInfo }),
    close: () => modern.close(),
  };
}
