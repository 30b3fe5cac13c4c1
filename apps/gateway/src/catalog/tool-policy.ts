import type { CatalogTool, WorkspaceCatalogV1 } from '@gatehouse/contracts';
import { serverFreshnessOf, type CatalogFreshness } from './catalog-freshness.js';
import {
  serverSurfaceOf,
  workspaceSurfaceOf,
  type ServedSurface,
  type SurfaceScope,
} from './served-surface.js';

// The ONE policy deciding which tools a caller has (tools/list shows exactly what tools/call accepts).
// Its input is the catalog lease the API built for the caller's principal: only servers approved for that
// principal now, each one's tools as the catalog mounted them (allowTools applied at listing, names minted across
// servers). tools/list renders `tools`; tools/call resolves a name through `byName` and nothing else, so a tool an
// upstream offers but the catalog does not carry (outside allowTools, a server not approved, revoked) is refused
// when called directly, not only hidden. The same catalog gives each endpoint its surface (served-surface.ts):
// tools, prompts and resources under the names that endpoint serves, built once per policy and scope.

export type { CatalogFreshness } from './catalog-freshness.js';

export interface ExposedTool {
  /** The minted name the caller sees: `mcp__<server>__<tool>`. */
  readonly name: string;
  /** The server's name in the workspace (its definition's name, what a lease is asked for). */
  readonly server: string;
  /** The upstream's own name of the tool. */
  readonly remoteName: string;
  readonly tool: CatalogTool;
}

export interface ToolPolicy {
  readonly tools: readonly ExposedTool[];
  readonly byName: ReadonlyMap<string, ExposedTool>;
  /** What the caller is told about the catalog's freshness (`_meta`). */
  readonly freshness: CatalogFreshness;
  /** What an endpoint serves from this catalog; undefined: a server the catalog does not carry (not served). */
  readonly surface: (scope: SurfaceScope) => ServedSurface | undefined;
}

export function toolPolicyOf(catalog: WorkspaceCatalogV1): ToolPolicy {
  const tools: ExposedTool[] = [];
  for (const server of catalog.document.servers) {
    for (const tool of server.tools) {
      tools.push({ name: tool.name, server: server.identity.server, remoteName: tool.remoteName, tool });
    }
  }
  const freshness: CatalogFreshness = {
    complete: catalog.complete,
    stale: catalog.stale,
    servers: catalog.servers.map(serverFreshnessOf),
  };
  // Built on first use and kept with the policy: a warm request resolves through maps, never rebuilds them.
  let workspace: ServedSurface | undefined;
  const byServer = new Map<string, ServedSurface>();
  return {
    tools,
    byName: new Map(tools.map((exposed) => [exposed.name, exposed])),
    freshness,
    surface: (scope) => {
      if (scope.kind === 'workspace')
        return (workspace ??= workspaceSurfaceOf(catalog.document, tools, freshness));
      const held = byServer.get(scope.server);
      if (held !== undefined) return held;
      // Only served servers are kept: a caller naming servers that do not exist cannot grow this map.
      const built = serverSurfaceOf(catalog.document, tools, catalog, scope.server);
      if (built !== undefined) byServer.set(scope.server, built);
      return built;
    },
  };
}
