/** Tenant slugs: URL- and cookie-safe, stable for the tenant's life (no command renames a slug). */
export const TENANT_SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

export function isTenantSlug(value: string): boolean {
  return TENANT_SLUG.test(value);
}
