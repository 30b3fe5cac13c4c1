import type { CatalogDocumentV1, CatalogIdentity, CatalogTool, ServerCatalogV1 } from '@gatehouse/contracts';

/**
 * A catalog is bound to (server, negotiated protocol version and era, server version): a reconnect that answers
 * with a different identity invalidates the catalog held for the old one.
 */
export function sameCatalogIdentity(a: CatalogIdentity, b: CatalogIdentity): boolean {
  return (
    a.server === b.server &&
    a.protocolVersion === b.protocolVersion &&
    a.protocolEra === b.protocolEra &&
    a.serverVersion === b.serverVersion
  );
}

export interface CatalogToolRoute {
  readonly server: ServerCatalogV1;
  readonly tool: CatalogTool;
}

/** Minted name -> (server, tool), for the gateway to route a call. Names are unique in a document by construction. */
export function indexCatalogTools(document: CatalogDocumentV1): ReadonlyMap<string, CatalogToolRoute> {
  const index = new Map<string, CatalogToolRoute>();
  for (const server of document.servers) {
    for (const tool of server.tools) index.set(tool.name, { server, tool });
  }
  return index;
}
