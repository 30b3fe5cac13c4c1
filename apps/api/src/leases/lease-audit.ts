import type { AuditEventInput } from '../audit/audit-event';
import { auditSafeFields } from '../audit/audit-safe-text';
import { leaseAuditActor, type LeaseCaller } from '../held-leases/lease-caller';

/** What every lease event names: the asking token (actor), its pool, the workspace, server and principal. */
export interface LeaseAuditSubject {
  readonly workspaceId: string;
  readonly serverName: string;
  readonly principalUserId: string | null;
}

type AuditValue = string | number | boolean | null;

/**
 * A lease event with the full identity (token, kind, pool, workspace, server, principal, and what activation
 * matched): ids, names, hashes and classes only, never a value of the definition. Tenant-written text (server
 * names, origins) goes through auditSafeFields, so it can never make the audit guard refuse the event.
 */
export function leaseAuditEvent(
  caller: LeaseCaller,
  action:
    'leases.issued' | 'leases.refused' | 'leases.renewed' | 'leases.released' | 'leases.renewal_refused',
  leaseId: string | null,
  subject: LeaseAuditSubject,
  extra: Readonly<Record<string, AuditValue>> = {},
): AuditEventInput {
  return {
    actor: leaseAuditActor(caller),
    action,
    target: { type: 'lease', id: leaseId },
    outcome: action === 'leases.refused' || action === 'leases.renewal_refused' ? 'denied' : 'success',
    data: auditSafeFields<AuditValue>({
      tokenId: caller.tokenId,
      tokenKind: caller.tokenKind,
      pool: caller.pool,
      workspaceId: subject.workspaceId,
      serverName: subject.serverName,
      principalUserId: subject.principalUserId,
      ...extra,
    }),
  };
}
