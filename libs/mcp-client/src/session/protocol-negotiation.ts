import {
  ProtocolError,
  ProtocolErrorCode,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Client,
  type ProtocolEra,
  type VersionNegotiationOptions,
} from '@modelcontextprotocol/client';
import { isMcpTransportError, type McpTransportError } from '../transport/transport-error.js';

// Which protocol era a connection may speak, per transport (decision 0143). Streamable HTTP probes with
// `server/discover` and falls back to the 2025-era `initialize` (`auto`): a 2026-07-28-only server is reached,
// a dual-era one on its modern leg, a 2025-only one as before, at the cost of one request per connect. stdio
// starts with `initialize` (`legacy`): our process-group transport is probed in place, where a 2025-era child
// that ignores the unknown request costs the whole probe timeout and one that exits on it fails the connect; so
// only a child that refuses `initialize` naming 2026-era versions only is spawned once more, probing first.

export interface Negotiation {
  readonly versionNegotiation: VersionNegotiationOptions;
  /** A refusal of `initialize` naming 2026-era versions only may be retried on a fresh transport, probing. */
  readonly mayRetryModern: boolean;
}

export function negotiationFor(
  kind: 'http' | 'stdio',
  options: { readonly modernOnly?: boolean } = {},
): Negotiation {
  if (kind === 'http' || options.modernOnly === true)
    return { versionNegotiation: { mode: 'auto' }, mayRetryModern: false };
  return { versionNegotiation: { mode: 'legacy' }, mayRetryModern: true };
}

export interface AcceptedEra {
  readonly era: ProtocolEra;
  readonly protocolVersion: string;
  readonly serverInfo: { readonly name: string; readonly version: string };
}

/**
 * What the handshake settled on, or null when we do not accept it: a 2025-era version must be one this SDK
 * speaks and the server must have named itself (initialize requires it); a 2026-era server names itself only if
 * it chooses to (its discover result's `_meta`), so its name and version may be empty.
 */
export function acceptedEra(
  client: Pick<Client, 'getNegotiatedProtocolVersion' | 'getProtocolEra' | 'getServerVersion'>,
): AcceptedEra | null {
  const protocolVersion = client.getNegotiatedProtocolVersion();
  const era = client.getProtocolEra();
  const server = client.getServerVersion();
  if (protocolVersion === undefined || era === undefined) return null;
  if (era === 'legacy') {
    if (!SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion) || server === undefined) return null;
    return { era, protocolVersion, serverInfo: { name: server.name, version: server.version } };
  }
  return { era, protocolVersion, serverInfo: { name: server?.name ?? '', version: server?.version ?? '' } };
}

/** The server refused the version we offered (-32022) and every version it names is one `initialize` cannot offer. */
export function modernVersionsRefused(error: unknown): boolean {
  if (!(error instanceof ProtocolError)) return false;
  if (error.code !== (ProtocolErrorCode.UnsupportedProtocolVersion as number)) return false;
  const supported = (error.data as { supported?: unknown } | undefined)?.supported;
  return (
    Array.isArray(supported) &&
    supported.length > 0 &&
    supported.every(
      (version) => typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version),
    )
  );
}

/** Our transport's own error, when the SDK wrapped it (the version probe names what failed it as its cause). */
export function transportErrorIn(error: unknown): McpTransportError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== undefined && current !== null; depth += 1) {
    if (isMcpTransportError(current)) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
