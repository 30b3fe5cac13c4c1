/**
 * What a retained catalog is bound to: the server (Gatehouse's id for it), the protocol version the handshake
 * settled on and its era, and the server's own name and version. A reconnect that reports any other identity
 * (a server that now answers on its 2026-era leg, say) invalidates it.
 */
export interface CatalogIdentity {
  readonly serverId: string;
  readonly protocolVersion: string;
  /** `legacy` (2025-era `initialize`) or `modern` (2026-07-28 and later); absent when the connector did not say. */
  readonly protocolEra?: 'legacy' | 'modern';
  readonly serverName: string;
  readonly serverVersion: string;
}

export function sameIdentity(a: CatalogIdentity, b: CatalogIdentity): boolean {
  return (
    a.serverId === b.serverId &&
    a.protocolVersion === b.protocolVersion &&
    a.protocolEra === b.protocolEra &&
    a.serverName === b.serverName &&
    a.serverVersion === b.serverVersion
  );
}
