import type { TenantPrincipal } from './principal';
import { isTenantAdmin } from './audit-actor';

const NOBODY = '00000000-0000-0000-0000-000000000000';

/** Owners and admins see every token of the tenant; anyone else only the tokens that act as themselves. */
export function visibleTokens(principal: TenantPrincipal): { userId?: string } {
  if (isTenantAdmin(principal)) return {};
  return { userId: principal.userId ?? NOBODY };
}
