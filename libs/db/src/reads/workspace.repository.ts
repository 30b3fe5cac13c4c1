import type { Database } from '../database';
import type { Workspace } from '../generated/client';

// Typed reads of the authenticated hot path, each ONE statement through Database.readInTenant (one round trip
// with the tenant context; row-level security decides what is visible). Each returns Prisma's own model type,
// so callers cannot tell them from a Prisma query; a column added to the model breaks the mapping at compile
// time.

export interface WorkspacePageQuery {
  /** Strictly after this (createdAt, id) position, in ascending order; null for the first page. */
  readonly after: { readonly at: Date; readonly id: string } | null;
  /** Rows to return (callers ask for one more than they show, to know there is a next page). */
  readonly take: number;
  /** Only these workspaces (a workspace-bound credential); empty means every visible one. */
  readonly onlyIds: readonly string[];
}

interface WorkspaceRow {
  id: string;
  tenant_id: string;
  name: string;
  repository_identity: string | null;
  generation: number;
  trusted: boolean;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, tenant_id, name, repository_identity, generation, trusted, created_at, updated_at';

/**
 * A keyset page of workspaces, oldest first: the same rows, in the same order, as
 * `tx.workspace.findMany({ where: { id: { in }, OR: [createdAt > at, createdAt = at AND id > id] },
 * orderBy: [createdAt, id], take })` inside withTenant. The SQL text depends only on which filters are
 * present (never on values), so each shape is planned with its values known.
 */
export async function findWorkspacePage(
  db: Database,
  tenantId: string,
  query: WorkspacePageQuery,
): Promise<Workspace[]> {
  const values: unknown[] = [];
  const where: string[] = [];
  if (query.onlyIds.length > 0) {
    values.push([...query.onlyIds]);
    where.push(`id = ANY($${values.length}::uuid[])`);
  }
  if (query.after !== null) {
    values.push(query.after.at, query.after.id);
    where.push(`(created_at, id) > ($${values.length - 1}::timestamptz, $${values.length}::uuid)`);
  }
  values.push(query.take);
  const text =
    `SELECT ${COLUMNS} FROM workspaces` +
    (where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '') +
    ` ORDER BY created_at, id LIMIT $${values.length}`;
  const rows = await db.readInTenant<WorkspaceRow>(tenantId, { text, values });
  return rows.map((r) => ({
    id: r.id,
    tenantId: r.tenant_id,
    name: r.name,
    repositoryIdentity: r.repository_identity,
    generation: r.generation,
    trusted: r.trusted,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }));
}
