import type { TenantTx } from '../tenancy/prisma-client';

// Reads of catalog snapshots for the catalog lease (decision 0075), inside the caller's tenant transaction
// (row-level security decides what is visible). Each row comes with its VERSION, Postgres's own `xmin` (the
// transaction that wrote the row's current tuple): catalog.submit replaces a snapshot in place with one upsert, so
// (id, version) names one exact content, and a reader can tell whether it still has it without reading it.

/** One candidate snapshot, without its document: what deciding the catalog's version needs. */
export interface CatalogSnapshotVersion {
  readonly id: string;
  readonly version: string;
  readonly serverName: string;
  readonly definitionFingerprint: string;
  /** The principal's user id, or 'workspace'. */
  readonly principalKey: string;
}

/** A chosen snapshot as the catalog is built from it. `document` is null when it did not fit the byte budget. */
export interface CatalogSnapshotContent {
  readonly id: string;
  readonly version: string;
  readonly serverName: string;
  readonly protocolVersion: string;
  readonly serverVersion: string;
  readonly complete: boolean;
  readonly stale: boolean;
  readonly fetchedAt: Date;
  /** The size of the stored document as JSON text. */
  readonly bytes: number;
  readonly document: unknown;
}

/** The snapshots of these servers in a workspace for these principal keys (any fingerprint: the caller picks). */
export async function findCatalogSnapshotVersions(
  tx: TenantTx,
  args: {
    readonly workspaceId: string;
    readonly serverNames: readonly string[];
    readonly principalKeys: readonly string[];
  },
): Promise<CatalogSnapshotVersion[]> {
  if (args.serverNames.length === 0) return [];
  const rows = await tx.$queryRaw<
    {
      id: string;
      version: string;
      server_name: string;
      definition_fingerprint: string;
      principal_key: string;
    }[]
  >`SELECT id, xmin::text AS version, server_name, definition_fingerprint, principal_key
      FROM catalog_snapshots
     WHERE workspace_id = ${args.workspaceId}::uuid
       AND server_name = ANY(${[...args.serverNames]}::text[])
       AND principal_key = ANY(${[...args.principalKeys]}::text[])`;
  return rows.map((row) => ({
    id: row.id,
    version: row.version,
    serverName: row.server_name,
    definitionFingerprint: row.definition_fingerprint,
    principalKey: row.principal_key,
  }));
}

/**
 * The chosen snapshots in server-name order (byte order, as the catalog document sorts), each with its document
 * while the running total of document sizes stays within `maxBytes`: the first one past it and every later one
 * come without. One statement, so versions, sizes and documents are of one moment.
 */
export async function loadCatalogSnapshotContents(
  tx: TenantTx,
  args: { readonly ids: readonly string[]; readonly maxBytes: number },
): Promise<CatalogSnapshotContent[]> {
  if (args.ids.length === 0) return [];
  const rows = await tx.$queryRaw<
    {
      id: string;
      version: string;
      server_name: string;
      protocol_version: string;
      server_version: string;
      complete: boolean;
      stale: boolean;
      fetched_at: Date;
      bytes: number;
      document: unknown;
    }[]
  >`WITH chosen AS (
      SELECT id, xmin::text AS version, server_name, protocol_version, server_version, complete, stale,
             fetched_at, octet_length(document::text)::int AS bytes, document
        FROM catalog_snapshots
       WHERE id = ANY(${[...args.ids]}::uuid[])
    )
    SELECT id, version, server_name, protocol_version, server_version, complete, stale, fetched_at, bytes,
           CASE WHEN sum(bytes) OVER (ORDER BY server_name COLLATE "C" ROWS UNBOUNDED PRECEDING) <= ${args.maxBytes}
                THEN document END AS document
      FROM chosen
     ORDER BY server_name COLLATE "C"`;
  return rows.map((row) => ({
    id: row.id,
    version: row.version,
    serverName: row.server_name,
    protocolVersion: row.protocol_version,
    serverVersion: row.server_version,
    complete: row.complete,
    stale: row.stale,
    fetchedAt: row.fetched_at,
    bytes: row.bytes,
    document: row.document,
  }));
}
