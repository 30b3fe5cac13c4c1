import type { IncomingMessage } from 'node:http';
import { eraRouteOf } from './protocol-era';

const protocolEraOf = (request: IncomingMessage, body: unknown) => eraRouteOf(request, body).era;

// Which leg a request goes to, as the SDK's classifier judges it (with the one session exception).

const request = (method: string, headers: Record<string, string> = {}) =>
  ({ method, headers }) as unknown as IncomingMessage;

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'probe', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const modernCall = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'echo', arguments: {}, _meta: ENVELOPE },
};
const MODERN_HEADERS = {
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'echo',
};

describe('eraRouteOf', () => {
  it('sends 2025 traffic to the sessions: initialize, a session request, GET, DELETE', () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '0' } },
    };
    expect(protocolEraOf(request('POST'), initialize)).toBe('legacy');
    const listed = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    expect(
      protocolEraOf(request('POST', { 'mcp-session-id': 's', 'mcp-protocol-version': '2025-11-25' }), listed),
    ).toBe('legacy');
    expect(protocolEraOf(request('GET'), undefined)).toBe('legacy');
    expect(protocolEraOf(request('DELETE'), undefined)).toBe('legacy');
  });

  it('sends a 2026 request to the per-request leg, with the request the ladder accepted', () => {
    expect(eraRouteOf(request('POST', MODERN_HEADERS), modernCall)).toEqual({
      era: 'modern',
      accepted: modernCall,
    });
  });

  it('hands on no accepted request for what the ladder refuses (its leg answers the refusal)', () => {
    const mismatched = request('POST', { ...MODERN_HEADERS, 'mcp-method': 'tools/list' });
    expect(eraRouteOf(mismatched, modernCall)).toEqual({ era: 'modern' });
  });

  it('sends what the 2026 revision refuses to the leg that answers in its words, never to a session', () => {
    // An envelope without the version header, and an Mcp-Method that is not the body's method.
    expect(protocolEraOf(request('POST'), modernCall)).toBe('modern');
    expect(
      protocolEraOf(request('POST', { ...MODERN_HEADERS, 'mcp-method': 'tools/list' }), modernCall),
    ).toBe('modern');
  });

  it("leaves a refused request that names a session to that session's transport", () => {
    // Not a JSON-RPC message (a member of its own): the ladder refuses it; with a session, the session does.
    const odd = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo' }, extra: true };
    expect(protocolEraOf(request('POST'), odd)).toBe('modern');
    expect(protocolEraOf(request('POST', { 'mcp-session-id': 's' }), odd)).toBe('legacy');
  });

  it('judges by the body first: an envelope is a 2026 request even next to a session id', () => {
    expect(protocolEraOf(request('POST', { ...MODERN_HEADERS, 'mcp-session-id': 's' }), modernCall)).toBe(
      'modern',
    );
  });
});
