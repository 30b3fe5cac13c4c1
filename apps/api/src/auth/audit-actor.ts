import type { TenantPrincipal } from './principal';
import type { AuditEventInput } from '../audit/audit-event';

/** Who an audit event names: the person when there is one (session or user token), else the token itself. */
export function auditActorOf(principal: TenantPrincipal): AuditEventInput['actor'] {
  if (principal.userId !== null) {
    return {
      type: 'user',
      id: principal.userId,
      tokenKind: principal.via === 'session' ? null : principal.via,
    };
  }
  return { type: 'token', id: principal.tokenId, tokenKind: principal.via };
}

export function isTenantAdmin(principal: TenantPrincipal): boolean {
  return principal.role === 'owner' || principal.role === 'admin';
}
