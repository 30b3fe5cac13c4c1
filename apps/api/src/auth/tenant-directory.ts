import type { Database } from '@gatehouse/db';

const MAX_ENTRIES = 10_000;

/**
 * Tenant id → slug, for building principals. Slugs never change (no command renames one), so a bounded
 * in-process cache is safe and saves a query on most authenticated requests. A deleted tenant takes its
 * tokens and sessions with it (cascade), so a stale entry is never reached through a live credential.
 */
export class TenantDirectory {
  private readonly slugs = new Map<string, string>();

  constructor(private readonly db: Database) {}

  async slugOf(tenantId: string): Promise<string | null> {
    const cached = this.slugs.get(tenantId);
    if (cached !== undefined) return cached;
    const tenant = await this.db.withTenant(tenantId, (tx) =>
      tx.tenant.findUnique({ where: { id: tenantId }, select: { slug: true } }),
    );
    if (tenant === null) return null;
    if (this.slugs.size >= MAX_ENTRIES) this.slugs.clear();
    this.slugs.set(tenantId, tenant.slug);
    return tenant.slug;
  }
}
