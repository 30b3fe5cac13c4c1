import { z } from 'zod';
import {
  MAX_CATALOG_SERVER_NAME_LENGTH,
  catalogDocumentV1,
  catalogIdentity,
  catalogSource,
} from './catalog-document.schema';
import { discoveryFailureView } from './discovery-failure.schema';

/**
 * The catalog lease (`GET /v1/workspaces/:workspaceId/catalog`, command `catalog.get`; decisions 0074 and 0075):
 * what a runtime or the gateway may mount in one workspace for one principal, now. Every server approved for that
 * principal is listed in `servers` with its state; the discovered ones are assembled into `document` (names minted
 * across them), which is what the gateway serves. Strict: a producer that adds a field bumps `v`, except an
 * optional field absent from every catalog that does not need it (`discoveryFailure`, decision 0142), which readers
 * of this version learn before any producer sends it (one package: they deploy together).
 */

/**
 * The document's bound: servers are assembled in name order while their snapshots fit; one that would take the
 * document past it is `omitted` (and the catalog is not complete). Each snapshot is at most 768 KiB itself.
 */
export const MAX_WORKSPACE_CATALOG_BYTES = 8 * 1024 * 1024;

export const WORKSPACE_CATALOG_SERVER_STATES = ['discovered', 'pending_discovery', 'omitted'] as const;
export type WorkspaceCatalogServerState = (typeof WORKSPACE_CATALOG_SERVER_STATES)[number];

/** Whose discovery a snapshot is: the principal's own, or the workspace's (a server not per user). */
export const CATALOG_DISCOVERED_FOR = ['principal', 'workspace'] as const;
export type CatalogDiscoveredFor = (typeof CATALOG_DISCOVERED_FOR)[number];

/** One approved server: the identity it was approved under, and how much of it the document carries. */
export const workspaceCatalogServer = z.strictObject({
  name: z.string().min(1).max(MAX_CATALOG_SERVER_NAME_LENGTH),
  /**
   * `discovered`: its snapshot for this exact definition is in `document`. `pending_discovery`: approved, but no
   * snapshot of this definition (fingerprint) has been posted for this principal yet. `omitted`: discovered, but
   * left out because the document reached MAX_WORKSPACE_CATALOG_BYTES.
   */
  state: z.enum(WORKSPACE_CATALOG_SERVER_STATES),
  /** Where the definition came from, as the API resolved it (not as a worker reported it). */
  source: catalogSource,
  /** The definition fingerprint the approval holds for: a snapshot of another fingerprint is never used. */
  definitionFingerprint: z.string().min(1).max(256),
  /** Null while pending discovery. */
  discoveredFor: z.enum(CATALOG_DISCOVERED_FOR).nullable(),
  /** Server, negotiated protocol version and server version of the snapshot; null while pending discovery. */
  identity: catalogIdentity.nullable(),
  /** Every declared capability was listed to its last page (false while pending). */
  complete: z.boolean(),
  /** The snapshot is the last good listing after a failed refresh. */
  stale: z.boolean(),
  /** When the snapshot was discovered; null while pending discovery. */
  fetchedAt: z.iso.datetime().nullable(),
  /**
   * Only on a `pending_discovery` server whose last discovery of this definition failed for a reason a worker
   * reported (decision 0142): the class, the reason word, its fixed sentence and when. Absent otherwise, so a
   * catalog without failures is what it was before the field existed (null over GraphQL, which answers every
   * field it is asked for).
   */
  discoveryFailure: discoveryFailureView.nullable().optional(),
});

export const workspaceCatalogV1 = z.strictObject({
  v: z.literal(1),
  workspaceId: z.uuid(),
  /** The principal the catalog is for; null: the workspace alone (agent and worker tokens, by default). */
  principalUserId: z.uuid().nullable(),
  /** Every approved server is discovered, complete and in `document`. */
  complete: z.boolean(),
  /** Some server's snapshot is stale. */
  stale: z.boolean(),
  /** Every server approved for the principal, in name order. */
  servers: z.array(workspaceCatalogServer),
  /** The discovered servers' catalogs assembled into one document (tool and prompt names minted across them). */
  document: catalogDocumentV1,
});

/** Every version a reader still accepts. */
export const workspaceCatalog = z.discriminatedUnion('v', [workspaceCatalogV1]);

export type WorkspaceCatalogServer = z.infer<typeof workspaceCatalogServer>;
export type WorkspaceCatalogV1 = z.infer<typeof workspaceCatalogV1>;
export type WorkspaceCatalog = z.infer<typeof workspaceCatalog>;
