/**
 * What a retained catalog is bound to: the server (Gatehouse's id for it), the protocol version the handshake
 * settled on and the server's own name and version. A reconnect that reports any other identity invalidates it.
 */
export interface CatalogIdentity {
  readonly serverId: string;
  readonly protocolVersion: string;
  readonly serverName: string;
  readonly serverVersion: string;
}

export function sameIdentity(a: CatalogIdentity, b: CatalogIdentity): boolean {
  return (
    a.serverId === b.serverId &&
    a.protocolVersion === b.protocolVersion &&
    a.serverName === b.serverName &&
    a.serverVersion === b.serverVersion
  );
}
