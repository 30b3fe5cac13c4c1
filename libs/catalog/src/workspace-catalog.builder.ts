import type {
  CatalogDiscoveredFor,
  CatalogIdentity,
  CatalogSource,
  ServerCatalogV1,
  WorkspaceCatalogServer,
  WorkspaceCatalogV1,
} from '@gatehouse/contracts';
import { assembleCatalogDocument } from './catalog-document.assembler';

/** A server approved for the principal now, as the API resolved it. */
export interface ApprovedCatalogServer {
  readonly name: string;
  readonly source: CatalogSource;
  readonly definitionFingerprint: string;
  /** The definition's `allowTools` (absent: every tool): applied here, whatever the snapshot carries. */
  readonly allowTools?: readonly string[];
}

/**
 * The snapshot chosen for an approved server. `catalog` is the stored document's one server, or null when it
 * was left out for the byte budget (omitted).
 */
export interface ChosenCatalogSnapshot {
  readonly discoveredFor: CatalogDiscoveredFor;
  readonly identity: CatalogIdentity;
  readonly complete: boolean;
  readonly stale: boolean;
  readonly fetchedAt: string;
  readonly catalog: ServerCatalogV1 | null;
}

export interface WorkspaceCatalogInput {
  readonly workspaceId: string;
  readonly principalUserId: string | null;
  /** Every approved server, with its snapshot for this exact fingerprint, or null (pending discovery). */
  readonly servers: readonly {
    readonly server: ApprovedCatalogServer;
    readonly snapshot: ChosenCatalogSnapshot | null;
  }[];
}

/**
 * The catalog lease of one principal in one workspace (libs/contracts workspaceCatalog v1): every approved server
 * with its state, in name order, and the discovered ones assembled into one document (assembleCatalogDocument
 * mints tool and prompt names across them). The source on the server and on each of its entries is the API's
 * resolution, not what the worker that posted the snapshot wrote. Pure: the same input gives the same catalog,
 * which is what lets the catalog's entity tag be computed from its inputs (decision 0075).
 */
export function buildWorkspaceCatalog(input: WorkspaceCatalogInput): WorkspaceCatalogV1 {
  const ordered = [...input.servers].sort((a, b) => byCodeUnits(a.server.name, b.server.name));
  const included: ServerCatalogV1[] = [];
  const servers = ordered.map(({ server, snapshot }): WorkspaceCatalogServer => {
    const approvedAs = {
      name: server.name,
      source: { tier: server.source.tier, origin: server.source.origin },
      definitionFingerprint: server.definitionFingerprint,
    };
    if (snapshot === null) {
      return {
        ...approvedAs,
        state: 'pending_discovery',
        discoveredFor: null,
        identity: null,
        complete: false,
        stale: false,
        fetchedAt: null,
      };
    }
    if (snapshot.catalog !== null)
      included.push(withinAllowTools(withSource(snapshot.catalog, approvedAs.source), server.allowTools));
    return {
      ...approvedAs,
      state: snapshot.catalog !== null ? 'discovered' : 'omitted',
      discoveredFor: snapshot.discoveredFor,
      identity: { ...snapshot.identity },
      complete: snapshot.complete,
      stale: snapshot.stale,
      fetchedAt: snapshot.fetchedAt,
    };
  });
  return {
    v: 1,
    workspaceId: input.workspaceId,
    principalUserId: input.principalUserId,
    complete: servers.every((server) => server.state === 'discovered' && server.complete),
    stale: servers.some((server) => server.stale),
    servers,
    document: assembleCatalogDocument(included),
  };
}

function withSource(catalog: ServerCatalogV1, source: CatalogSource): ServerCatalogV1 {
  return {
    ...catalog,
    source,
    tools: catalog.tools.map((tool) => ({ ...tool, source })),
    prompts: catalog.prompts.map((prompt) => ({ ...prompt, source })),
    resources: catalog.resources.map((resource) => ({ ...resource, source })),
    resourceTemplates: catalog.resourceTemplates.map((template) => ({ ...template, source })),
  };
}

/**
 * Only the tools the definition allows (decision 0096): a snapshot is posted by a worker, which may not have
 * applied them (or be another version), and the catalog is what tools/list shows and tools/call accepts. A member
 * the snapshot does not list is reported as the builder reports it.
 */
function withinAllowTools(
  catalog: ServerCatalogV1,
  allowTools: readonly string[] | undefined,
): ServerCatalogV1 {
  if (allowTools === undefined) return catalog;
  const allowed = new Set(allowTools);
  const listed = new Set(catalog.tools.map((tool) => tool.remoteName));
  const reported = new Set(
    catalog.diagnostics.flatMap((d) => (d.code === 'allow_tools_unlisted' ? [d.tool] : [])),
  );
  const unlisted = allowTools.filter((name) => !listed.has(name) && !reported.has(name));
  return {
    ...catalog,
    tools: catalog.tools.filter((tool) => allowed.has(tool.remoteName)),
    diagnostics: [
      ...catalog.diagnostics,
      ...unlisted.map((tool) => ({
        code: 'allow_tools_unlisted' as const,
        server: catalog.identity.server,
        tool,
      })),
    ],
  };
}

/** The order assembleCatalogDocument sorts servers in (and the database's COLLATE "C" for ASCII names). */
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
