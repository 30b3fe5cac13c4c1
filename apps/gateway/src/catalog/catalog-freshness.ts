import type { DiscoveryFailureView, WorkspaceCatalogV1 } from '@gatehouse/contracts';

// What an MCP endpoint tells its caller about the catalog it serves (`_meta["dev.gatehouse/catalog"]` on every
// list): whether it is complete and fresh, and each server of the caller's own catalog with its state, and, for a
// server still pending discovery, why its last discovery failed when a worker reported it (decision 0142). Built
// from the caller's catalog lease only, so it never names a server the caller is not served.

export interface CatalogFreshness {
  readonly complete: boolean;
  readonly stale: boolean;
  readonly servers: readonly ServerFreshness[];
}

export interface ServerFreshness {
  readonly name: string;
  readonly state: WorkspaceCatalogV1['servers'][number]['state'];
  readonly complete: boolean;
  readonly stale: boolean;
  /**
   * Why the server is still pending discovery, when a worker reported it (decision 0142): the class, the closed
   * reason word, its fixed sentence and when. Only servers of the caller's own catalog are listed at all.
   */
  readonly discoveryFailure?: DiscoveryFailureView;
}

/** One server of the caller's catalog as `_meta` names it. */
export function serverFreshnessOf(server: WorkspaceCatalogV1['servers'][number]): ServerFreshness {
  return {
    name: server.name,
    state: server.state,
    complete: server.complete,
    stale: server.stale,
    ...(server.discoveryFailure ? { discoveryFailure: server.discoveryFailure } : {}),
  };
}
