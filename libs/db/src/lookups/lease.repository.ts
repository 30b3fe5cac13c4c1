import type { Database } from '../database';
import { isUuid } from '../tenancy/tenant-context';

// Typed wrappers over the SECURITY DEFINER functions of migration 20261215100000_leases: a gateway token belongs
// to no tenant, so the tenant of what it asks about is read before any tenant context exists. One statement each
// through Database.lookup. Ids that are not uuids answer null without a query (Postgres would refuse the cast).

/** The tenant something belongs to, by id and slug (the slug decides which pools are open to it). */
export interface TenantRef {
  readonly tenantId: string;
  readonly tenantSlug: string;
}

interface TenantRow {
  tenant_id: string;
  tenant_slug: string;
}

function first(rows: readonly TenantRow[]): TenantRef | null {
  const row = rows[0];
  return row === undefined ? null : { tenantId: row.tenant_id, tenantSlug: row.tenant_slug };
}

/** The tenant of a workspace; null when there is no such workspace. */
export async function findWorkspaceTenant(db: Database, workspaceId: string): Promise<TenantRef | null> {
  if (!isUuid(workspaceId)) return null;
  return first(
    await db.lookup(
      (query) =>
        query<TenantRow>`SELECT tenant_id, tenant_slug FROM gh_workspace_tenant(${workspaceId}::uuid)`,
    ),
  );
}

/** The tenant of a lease, only when `tokenId` holds it; null otherwise (another token's lease reads as none). */
export async function findHeldLeaseTenant(
  db: Database,
  leaseId: string,
  tokenId: string,
): Promise<TenantRef | null> {
  if (!isUuid(leaseId) || !isUuid(tokenId)) return null;
  return first(
    await db.lookup(
      (query) =>
        query<TenantRow>`SELECT tenant_id, tenant_slug FROM gh_lease_tenant(${leaseId}::uuid, ${tokenId}::uuid)`,
    ),
  );
}
