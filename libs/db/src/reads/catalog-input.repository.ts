import type { Database } from '../database';

// The version of everything a catalog lease is computed from (decision 0075), in ONE statement through
// Database.readInTenant (one round trip, row-level security deciding what is visible): the workspace row, the
// definition sources, variables and disable overlays of the principal's view (the rows
// apps/api definition-snapshot.loader reads), the approvals that bear on the view with whether each has expired at
// `now`, the catalog snapshots and the discovery failures the principal may be shown, and whether the principal is
// a member. Each row is named by its id and Postgres's `xmin` (the transaction that wrote its current version), so
// any write, insert or delete of one of them changes the answer, and nothing else does.

export interface CatalogInputVersions {
  /** Null when the workspace is not visible in the tenant. */
  readonly workspace: string | null;
  readonly member: boolean;
  readonly sources: string;
  readonly variables: string;
  readonly overlays: string;
  readonly approvals: string;
  readonly snapshots: string;
  readonly failures: string;
}

interface Row {
  workspace: string | null;
  member: boolean;
  sources: string | null;
  variables: string | null;
  overlays: string | null;
  approvals: string | null;
  snapshots: string | null;
  failures: string | null;
}

const VERSIONS = (table: string, where: string) =>
  `(SELECT string_agg(id::text || '.' || xmin::text, ',' ORDER BY id) FROM ${table} WHERE ${where})`;

// $1 workspace id, $2 the principal's user id ('' for the workspace alone), $3 now.
const TEXT = `SELECT
  (SELECT id::text || '.' || xmin::text FROM workspaces WHERE id = $1::uuid) AS workspace,
  EXISTS (SELECT 1 FROM memberships WHERE $2 <> '' AND user_id = NULLIF($2, '')::uuid) AS member,
  ${VERSIONS(
    'definition_sources',
    `tier IN ('managed', 'plugin') OR (tier = 'project' AND workspace_id = $1::uuid)
      OR ($2 <> '' AND tier = 'user' AND owner_user_id = NULLIF($2, '')::uuid)
      OR ($2 <> '' AND tier = 'local' AND workspace_id = $1::uuid AND owner_user_id = NULLIF($2, '')::uuid)`,
  )} AS sources,
  ${VERSIONS('definition_variables', `holder IN ('tenant', 'workspace:' || $1, 'user:' || $2)`)} AS variables,
  ${VERSIONS('disable_overlays', `workspace_id = $1::uuid AND holder IN ('workspace', 'user:' || $2)`)} AS overlays,
  (SELECT string_agg(id::text || '.' || xmin::text || '.' || (expires_at IS NOT NULL AND expires_at <= $3::timestamptz)::text,
                     ',' ORDER BY id)
     FROM approvals
    WHERE workspace_id = $1::uuid AND (principal_user_id IS NULL OR principal_user_id = NULLIF($2, '')::uuid)) AS approvals,
  ${VERSIONS('catalog_snapshots', `workspace_id = $1::uuid AND principal_key IN ('workspace', NULLIF($2, ''))`)} AS snapshots,
  ${VERSIONS('catalog_discovery_failures', `workspace_id = $1::uuid AND principal_key IN ('workspace', NULLIF($2, ''))`)} AS failures`;

export async function readCatalogInputVersions(
  db: Database,
  tenantId: string,
  args: { readonly workspaceId: string; readonly principalUserId: string | null; readonly now: Date },
): Promise<CatalogInputVersions> {
  const [row] = await db.readInTenant<Row>(tenantId, {
    text: TEXT,
    values: [args.workspaceId, args.principalUserId ?? '', args.now.toISOString()],
  });
  return {
    workspace: row?.workspace ?? null,
    member: row?.member ?? false,
    sources: row?.sources ?? '',
    variables: row?.variables ?? '',
    overlays: row?.overlays ?? '',
    approvals: row?.approvals ?? '',
    snapshots: row?.snapshots ?? '',
    failures: row?.failures ?? '',
  };
}
