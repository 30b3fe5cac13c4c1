import { headerOwnerOf, isProtocolOwnedHeader, readPrincipalHeader } from '@gatehouse/catalog';
import { decodeServerEntry } from './definition-decoder';
import type { SourceRef } from './tier';

// Static headers are judged by the same list as the principal header (libs/catalog/src/protocol-headers.ts).

const source: SourceRef = { tier: 'project', origin: 'project:ws' };

function decode(headers: Record<string, string>, extra: Record<string, unknown> = {}) {
  return decodeServerEntry('srv', { type: 'http', url: 'https://h.example/mcp', headers, ...extra }, source);
}

const OWNED = [
  'Host',
  'Content-Length',
  'transfer-encoding',
  'Connection',
  'Cookie',
  'Mcp-Session-Id',
  'MCP-PROTOCOL-VERSION',
  'Last-Event-ID',
  'Content-Type',
  'Accept',
  'Upgrade',
  'Keep-Alive',
  'TE',
  'Trailer',
  'Expect',
  'Proxy-Authorization',
  'traceparent',
  'User-Agent',
];

describe('protocol-owned static headers', () => {
  it.each(OWNED)('refuses %s at decode, naming the header', (name) => {
    expect(decode({ 'X-Team': 'a', [name]: 'x' })).toMatchObject({
      kind: 'malformed',
      problems: [{ reason: 'protocol_header', path: ['headers', name.length <= 64 ? name : '#1'] }],
    });
  });

  it.each(OWNED)('is the list the principal header is refused by: %s', (name) => {
    expect(isProtocolOwnedHeader(name)).toBe(true);
    expect(readPrincipalHeader(name, [])).toMatchObject({ ok: false, reason: 'protocol_header' });
  });

  // CGI-style servers (WSGI, PHP, many proxies' upstream variables) read `_` and `-` alike in a header name,
  // so `Mcp_Session_Id` arrives as the session header there.
  it.each([
    'mcp_session_id',
    'Mcp_Protocol_Version',
    'Content_Length',
    'TRANSFER_ENCODING',
    'proxy_authorization',
  ])('refuses the underscore spelling %s of an owned header too', (name) => {
    expect(decode({ [name]: 'x' })).toMatchObject({
      kind: 'malformed',
      problems: [{ reason: 'protocol_header', path: ['headers', name] }],
    });
    expect(readPrincipalHeader(name, [])).toMatchObject({ ok: false, reason: 'protocol_header' });
  });

  it('keeps the credential slot for a static credential (never for the principal header)', () => {
    expect(headerOwnerOf('authorization')).toBe('authenticator');
    expect(decode({ Authorization: 'Bearer ${API_TOKEN}' }).kind).toBe('valid');
    expect(readPrincipalHeader('Authorization', [])).toMatchObject({ ok: false, reason: 'protocol_header' });
  });

  it('accepts ordinary headers', () => {
    expect(decode({ 'X-Api-Key': '${K_TOKEN}', 'X-Team': 'a', Accepts: 'b' }).kind).toBe('valid');
  });
});
