import type { IncomingMessage } from 'node:http';
import { classifyInboundRequest, type JSONRPCRequest } from '@modelcontextprotocol/server';

// Which era's serving a request is for (decision 0144), judged as the 2026-07-28 revision says, by the SDK's own
// classifier: a request that carries the per-request `_meta` envelope (or names a 2026 version) is modern, and
// so is one the revision refuses (a version header that contradicts the body, an `Mcp-Method` that is not the
// body's method, an envelope with no version header): the modern leg answers those with the revision's error,
// never serves them as 2025 traffic. Everything else (initialize, a session's requests, GET and DELETE, batches,
// responses) is the 2025 sessions'. One exception to the ladder: a request the classifier refuses that names a
// session (`Mcp-Session-Id`, which only the 2025 revision has) comes from a 2025 client in its session, and that
// session's transport refuses it in the words that client knows (its malformed message is not a 2026 request).

export type ProtocolEra = 'legacy' | 'modern';

/**
 * The era's leg, and for a 2026 request the classifier accepted (its JSON-RPC shape, its era, its whole `_meta`
 * envelope, and its standard headers where present), that request as it classified it.
 */
export type EraRoute =
  { readonly era: 'legacy' } | { readonly era: 'modern'; readonly accepted?: JSONRPCRequest };

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

export function eraRouteOf(request: IncomingMessage, body: unknown): EraRoute {
  const outcome = classifyInboundRequest({
    httpMethod: request.method ?? 'GET',
    protocolVersionHeader: header(request, 'mcp-protocol-version'),
    mcpMethodHeader: header(request, 'mcp-method'),
    mcpNameHeader: header(request, 'mcp-name'),
    body,
  });
  if (outcome.kind === 'legacy') return { era: 'legacy' };
  if (outcome.kind === 'reject')
    return header(request, 'mcp-session-id') === undefined ? { era: 'modern' } : { era: 'legacy' };
  return outcome.messageKind === 'request' ? { era: 'modern', accepted: outcome.message } : { era: 'modern' };
}
