/**
 * THE list of header names a definition may not set as it likes, with who owns each: the ONE list the principal
 * header reader, the static-header decoder (libs/definitions) and the header helper's output check share. Names
 * are lowercase (header names are case-insensitive).
 *
 * - `transport`: HTTP framing and the MCP transport's own negotiation (a definition setting them would break or
 *   smuggle requests: a second `Host`, a `Content-Length` or `Transfer-Encoding` that disagrees with the body).
 * - `protocol`: MCP's session and version headers, which the client and the gateway set per session.
 * - `gateway`: what the gateway adds per call (trace context, under the tenant's HostPolicy).
 * - `authenticator`: the credential slot. A static header or a header helper may fill it (that is how most
 *   servers are authenticated); the principal header never.
 */
export type HeaderOwner = 'transport' | 'protocol' | 'gateway' | 'authenticator';

const OWNERS: ReadonlyMap<string, HeaderOwner> = new Map<string, HeaderOwner>([
  ['host', 'transport'],
  ['content-type', 'transport'],
  ['content-length', 'transport'],
  ['content-encoding', 'transport'],
  ['transfer-encoding', 'transport'],
  ['te', 'transport'],
  ['trailer', 'transport'],
  ['connection', 'transport'],
  ['keep-alive', 'transport'],
  ['proxy-connection', 'transport'],
  ['upgrade', 'transport'],
  ['expect', 'transport'],
  ['accept', 'transport'],
  ['accept-encoding', 'transport'],
  ['user-agent', 'transport'],
  ['cookie', 'transport'],
  ['proxy-authorization', 'transport'],
  ['mcp-session-id', 'protocol'],
  ['mcp-protocol-version', 'protocol'],
  ['last-event-id', 'protocol'],
  ['traceparent', 'gateway'],
  ['tracestate', 'gateway'],
  ['authorization', 'authenticator'],
]);

/**
 * Who owns this header name (any case, `_` read as `-`), or null for a header a definition may set. CGI-style
 * servers (WSGI, PHP, a proxy's upstream variables) fold `_` and `-` together, so `Mcp_Session_Id` is the
 * session header there.
 */
export function headerOwnerOf(name: string): HeaderOwner | null {
  return OWNERS.get(name.toLowerCase().replaceAll('_', '-')) ?? null;
}

/** Whether the transport, the protocol, the gateway or the authenticator owns this header name (see headerOwnerOf). */
export function isProtocolOwnedHeader(name: string): boolean {
  return headerOwnerOf(name) !== null;
}

/**
 * Whether a definition's static header or a header helper's output may set this header: anything but the
 * transport's, the protocol's and the gateway's (the credential slot is theirs to fill).
 */
export function maySetHeader(name: string): boolean {
  const owner = headerOwnerOf(name);
  return owner === null || owner === 'authenticator';
}
