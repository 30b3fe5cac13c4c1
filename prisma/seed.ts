// The demo tenant `npm start` creates: tenant `demo` with one workspace. Idempotent; the identity work adds
// its sign-in user on top.
import { randomUUID } from 'node:crypto';
import { findTenantIdBySlug, type Database } from '@gatehouse/db';

export const DEMO_TENANT_SLUG = 'demo';
export const DEMO_WORKSPACE_NAME = 'demo';

export interface SeedDemoResult {
  tenantId: string;
  workspaceId: string;
  /** False when the tenant already existed (a second `npm start`). */
  created: boolean;
}

export async function seedDemo(db: Database): Promise<SeedDemoResult> {
  // Tenants are invisible without a tenant context, so the slug is resolved through the definer lookup.
  const existing = await findTenantIdBySlug(db, DEMO_TENANT_SLUG);
  const tenantId = existing ?? randomUUID();
  return db.withTenant(tenantId, async (tx) => {
    if (!existing) await tx.tenant.create({ data: { id: tenantId, slug: DEMO_TENANT_SLUG, name: 'Demo' } });
    const workspace =
      (await tx.workspace.findUnique({
        where: { tenantId_name: { tenantId, name: DEMO_WORKSPACE_NAME } },
      })) ??
      (await tx.workspace.create({
        data: { id: randomUUID(), tenantId, name: DEMO_WORKSPACE_NAME, trusted: true },
      }));
    return { tenantId, workspaceId: workspace.id, created: !existing };
  });
}
