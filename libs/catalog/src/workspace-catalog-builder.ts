import type {
  CatalogDiscoveredFor,
  DiscoveryFailureView,
  CatalogIdentity,
  CatalogSource,
  ServerCatalogV1,
  WorkspaceCatalogServer,
  WorkspaceCatalogV1,
} from '@gatehouse/contracts';
import { assembleCatalogDocument } from './catalog-document-assembler';
import {
  applyCatalogOptions,
  type CatalogOptions,
  type UnnamedServerCatalog,
} from './catalog-options-applier';

/** A server approved for the principal now, as the API resolved it. */
export interface ApprovedCatalogServer {
  readonly name: string;
  readonly source: CatalogSource;
  readonly definitionFingerprint: string;
  /**
   * The approved definition's catalog options (`allowTools`, `toolAxes`, `toolFaces`, `contentOrigin`; absent:
   * none declared): applied here to the stored snapshot, whatever its producer applied (decisions 0096, 0101).
   */
  readonly options?: CatalogOptions;
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
    /** The discovery failure reported for the same key (decision 0142); shown only while pending discovery. */
    readonly discoveryFailure?: DiscoveryFailureView | null;
  }[];
}

/**
 * The catalog lease of one principal in one workspace (libs/contracts workspaceCatalog v1): every approved server
 * with its state, in name order, and the discovered ones assembled into one document (assembleCatalogDocument
 * mints tool and prompt names across them). The source on the server and on each of its entries is the API's
 * resolution, not what the worker that posted the snapshot wrote; so are the catalog options (applyCatalogOptions
 * with the approved definition's: what the snapshot said about axes, faces, content origin and allowed tools is
 * derived again from its listing). Pure: the same input gives the same catalog,
 * which is what lets the catalog's entity tag be computed from its inputs (decision 0075).
 */
export function buildWorkspaceCatalog(input: WorkspaceCatalogInput): WorkspaceCatalogV1 {
  const ordered = [...input.servers].sort((a, b) => byCodeUnits(a.server.name, b.server.name));
  const included: UnnamedServerCatalog[] = [];
  const servers = ordered.map(({ server, snapshot, discoveryFailure }): WorkspaceCatalogServer => {
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
        ...(discoveryFailure ? { discoveryFailure: { ...discoveryFailure } } : {}),
      };
    }
    if (snapshot.catalog !== null)
      included.push(
        applyCatalogOptions(withSource(snapshot.catalog, approvedAs.source), server.options ?? {}),
      );
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

/** The order assembleCatalogDocument sorts servers in (and the database's COLLATE "C" for ASCII names). */
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
