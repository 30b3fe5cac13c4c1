import type { Database } from '../database';
import type { Approval, Workspace } from '../generated/client';

// The read phase of lease issuance (decision 0093) as ONE round trip through Database.readManyInTenant: the
// workspace, whether the principal is a member, the view's definition sources, variables, disable overlays and
// entry authors (the rows apps/api definition-snapshot.loader reads through Prisma), the approvals of the one
// server asked for, and the tenant's HostPolicy. Row-level security decides what is visible, as in withTenant.
// Columns are aliased to the Prisma model's field names, so each row reads like the model the rest expects.

export interface ViewSourceRow {
  readonly id: string;
  readonly tenantId: string;
  readonly tier: string;
  readonly origin: string;
  readonly workspaceId: string | null;
  readonly ownerUserId: string | null;
  readonly documentCt: Uint8Array;
  readonly updatedBy: string | null;
}

export interface ViewVariableRow {
  readonly id: string;
  readonly scope: 'tenant' | 'workspace' | 'user';
  readonly workspaceId: string | null;
  readonly userId: string | null;
  readonly name: string;
  readonly valueCt: Uint8Array;
  readonly updatedBy: string | null;
}

export interface ViewOverlayRow {
  readonly workspaceId: string;
  readonly userId: string | null;
  readonly serverName: string;
  readonly reason: string | null;
}

export interface ViewAuthorRow {
  readonly origin: string;
  readonly entryName: string;
  readonly userId: string;
  readonly changedAt: Date;
}

export interface LeaseHostPolicyRow {
  readonly stdioCommands: unknown;
  readonly headerHelpers: unknown;
  readonly privateCidrs: readonly string[];
  readonly traceContextOrigins: readonly string[];
  readonly fourEyes: boolean;
  /** The tenant's env allowlist narrowing (JSON array), or null: each pool's own list. */
  readonly childEnvKeys: unknown;
  readonly updatedAt: Date;
}

export interface LeaseIssuanceInputs {
  /** Null when the workspace is not visible in the tenant (then nothing else is meaningful). */
  readonly workspace: Workspace | null;
  /** Whether the principal asked for is a member of the tenant (true when there is none). */
  readonly member: boolean;
  readonly sources: readonly ViewSourceRow[];
  readonly variables: readonly ViewVariableRow[];
  readonly overlays: readonly ViewOverlayRow[];
  readonly authors: readonly ViewAuthorRow[];
  /** The decisions bearing on this server in the view: the workspace's and the principal's own. */
  readonly approvals: readonly Approval[];
  readonly hostPolicy: LeaseHostPolicyRow | null;
}

// $1 workspace id, $2 the principal's user id ('' for the workspace alone). Same filters as the Prisma loader.
const SOURCES_IN_VIEW = `tier IN ('managed', 'plugin') OR (tier = 'project' AND workspace_id = $1::uuid)
  OR ($2 <> '' AND tier = 'user' AND owner_user_id = NULLIF($2, '')::uuid)
  OR ($2 <> '' AND tier = 'local' AND workspace_id = $1::uuid AND owner_user_id = NULLIF($2, '')::uuid)`;
const HOLDERS = `ARRAY['tenant', 'workspace:' || $1] || CASE WHEN $2 <> '' THEN ARRAY['user:' || $2] ELSE ARRAY[]::text[] END`;

// The workspace, whether the principal is a member, and the tenant's HostPolicy as ONE row (each side null when
// absent): three one-row reads in one statement, since every statement of a unit costs its own Bind, Execute and
// Sync on both sides (decision 0122). $1 workspace id, $2 the principal's user id ('' for none), $3 tenant id.
const SCALARS = `SELECT w.id, w.tenant_id AS "tenantId", w.name, w.repository_identity AS "repositoryIdentity",
  w.generation, w.trusted, w.created_at AS "createdAt", w.updated_at AS "updatedAt",
  ($2 = '' OR EXISTS (SELECT 1 FROM memberships WHERE user_id = NULLIF($2, '')::uuid)) AS member,
  hp.tenant_id IS NOT NULL AS "hasHostPolicy", hp.stdio_commands AS "stdioCommands",
  hp.header_helpers AS "headerHelpers", hp.private_cidrs AS "privateCidrs",
  hp.trace_context_origins AS "traceContextOrigins", hp.four_eyes AS "fourEyes",
  hp.child_env_keys AS "childEnvKeys", hp.updated_at AS "hostPolicyUpdatedAt"
  FROM (SELECT 1) AS one
  LEFT JOIN workspaces AS w ON w.id = $1::uuid
  LEFT JOIN host_policies AS hp ON hp.tenant_id = $3::uuid`;

interface ScalarsRow extends Omit<LeaseHostPolicyRow, 'updatedAt'> {
  readonly id: string | null;
  readonly tenantId: string;
  readonly name: string;
  readonly repositoryIdentity: string | null;
  readonly generation: number;
  readonly trusted: boolean;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly member: boolean;
  readonly hasHostPolicy: boolean;
  readonly hostPolicyUpdatedAt: Date;
}

const SOURCES = `SELECT id, tenant_id AS "tenantId", tier::text AS tier, origin, workspace_id AS "workspaceId",
  owner_user_id AS "ownerUserId", document_ct AS "documentCt", updated_by AS "updatedBy"
  FROM definition_sources WHERE ${SOURCES_IN_VIEW} ORDER BY origin ASC`;
const VARIABLES = `SELECT id, scope::text AS scope, workspace_id AS "workspaceId", user_id AS "userId", name,
  value_ct AS "valueCt", updated_by AS "updatedBy" FROM definition_variables WHERE holder = ANY(${HOLDERS})`;
const OVERLAYS = `SELECT workspace_id AS "workspaceId", user_id AS "userId", server_name AS "serverName", reason
  FROM disable_overlays WHERE workspace_id = $1::uuid
  AND holder = ANY(ARRAY['workspace'] || CASE WHEN $2 <> '' THEN ARRAY['user:' || $2] ELSE ARRAY[]::text[] END)`;
const AUTHORS = `SELECT origin, entry_name AS "entryName", user_id AS "userId", changed_at AS "changedAt"
  FROM definition_entry_authors
  WHERE origin IN (SELECT origin FROM definition_sources WHERE ${SOURCES_IN_VIEW})
     OR origin = ANY(ARRAY(SELECT 'variable:' || h FROM unnest(${HOLDERS}) AS h))`;
// $1 workspace id, $2 the principal's user id ('' for none), $3 the server's name.
const APPROVALS = `SELECT id, tenant_id AS "tenantId", workspace_id AS "workspaceId", request_id AS "requestId",
  identity_key AS "identityKey", server_name AS "serverName", source_tier::text AS "sourceTier",
  source_origin AS "sourceOrigin", definition_fingerprint AS "definitionFingerprint",
  security_identity AS "securityIdentity", principal_user_id AS "principalUserId",
  repository_identity AS "repositoryIdentity", workspace_generation AS "workspaceGeneration", projection,
  decision::text AS decision, decided_by AS "decidedBy", decided_at AS "decidedAt",
  decision_reason AS "decisionReason", expires_at AS "expiresAt", revoked_at AS "revokedAt",
  revoked_by AS "revokedBy", revoke_reason AS "revokeReason", expiry_recorded_at AS "expiryRecordedAt"
  FROM approvals WHERE workspace_id = $1::uuid AND server_name = $3
  AND (principal_user_id IS NULL OR principal_user_id = NULLIF($2, '')::uuid)`;
export async function readLeaseIssuanceInputs(
  db: Pick<Database, 'readManyInTenant'>,
  tenantId: string,
  args: {
    readonly workspaceId: string;
    readonly principalUserId: string | null;
    readonly serverName: string;
  },
): Promise<LeaseIssuanceInputs> {
  const view = [args.workspaceId, args.principalUserId ?? ''];
  const [scalars, sources, variables, overlays, authors, approvals] = await db.readManyInTenant(tenantId, [
    { name: 'lease-issuance/scalars', text: SCALARS, values: [...view, tenantId] },
    { name: 'lease-issuance/sources', text: SOURCES, values: view },
    { name: 'lease-issuance/variables', text: VARIABLES, values: view },
    { name: 'lease-issuance/overlays', text: OVERLAYS, values: view },
    { name: 'lease-issuance/authors', text: AUTHORS, values: view },
    { name: 'lease-issuance/approvals', text: APPROVALS, values: [...view, args.serverName] },
  ]);
  const row = scalars?.[0] as ScalarsRow | undefined;
  if (row === undefined) throw new Error('lease issuance read: the one-row statement answered no row');
  return {
    workspace: row.id === null ? null : workspaceOf({ ...row, id: row.id }),
    member: row.member,
    sources: (sources ?? []) as ViewSourceRow[],
    variables: (variables ?? []) as ViewVariableRow[],
    overlays: (overlays ?? []) as ViewOverlayRow[],
    authors: (authors ?? []) as ViewAuthorRow[],
    approvals: (approvals ?? []) as Approval[],
    hostPolicy: row.hasHostPolicy
      ? {
          stdioCommands: row.stdioCommands,
          headerHelpers: row.headerHelpers,
          privateCidrs: row.privateCidrs,
          traceContextOrigins: row.traceContextOrigins,
          fourEyes: row.fourEyes,
          childEnvKeys: row.childEnvKeys,
          updatedAt: row.hostPolicyUpdatedAt,
        }
      : null,
  };
}

/** The workspace columns of the one row, as the Prisma model has them. */
function workspaceOf(row: ScalarsRow & { readonly id: string }): Workspace {
  return {
    id: row.id,
    tenantId: row.tenantId,
    name: row.name,
    repositoryIdentity: row.repositoryIdentity,
    generation: row.generation,
    trusted: row.trusted,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
