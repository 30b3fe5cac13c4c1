import { ROLE_SCOPES } from '@gatehouse/commands';
import type { TenantPrincipal } from '../../apps/api/src/auth/principal';

/** The demo owner as the API's use cases see a signed-in owner: what the seeders write through them as. */
export function demoOwnerPrincipal(
  tenant: { tenantId: string; tenantSlug: string },
  userId: string,
): TenantPrincipal {
  return {
    type: 'tenant',
    tenantId: tenant.tenantId,
    tenantSlug: tenant.tenantSlug,
    userId,
    role: 'owner',
    via: 'session',
    sessionId: null,
    tokenId: null,
    scopes: ROLE_SCOPES.owner,
    workspaceIds: [],
    pool: null,
  };
}
