import type { DiscoveryFailureReport } from '@gatehouse/contracts';
import type { Lease } from '@gatehouse/db';
import type { AuditEventInput } from '../audit/audit-event';
import { auditSafeFields } from '../audit/audit-safe-text';
import { leaseAuditActor, type LeaseCaller } from '../held-leases/lease-caller';

type AuditValue = string | number | boolean | null;

/**
 * `catalog.reportFailure` as the audit records it, accepted or refused, like a snapshot submission
 * (catalog-submit-audit): the posting token, the lease it named and, where that lease is this token's, its
 * workspace, server, principal and fingerprint, then the two words it reported (closed lists, no text).
 */
export function discoveryFailureAuditEvent(
  caller: LeaseCaller,
  leaseId: string,
  lease: Lease | null,
  report: DiscoveryFailureReport,
  outcome:
    | { readonly accepted: true }
    | { readonly accepted: false; readonly code: string; readonly reason: string | null },
): AuditEventInput {
  const identity: Record<string, AuditValue> =
    lease === null
      ? {}
      : {
          workspaceId: lease.workspaceId,
          serverName: lease.serverName,
          principalUserId: lease.principalUserId,
          definitionFingerprint: lease.definitionFingerprint,
          approvalId: lease.approvalId,
        };
  const refusal: Record<string, AuditValue> = outcome.accepted
    ? {}
    : { code: outcome.code, refusalReason: outcome.reason };
  return {
    actor: leaseAuditActor(caller),
    action: outcome.accepted ? 'catalog.discovery_failed' : 'catalog.discovery_failure_refused',
    target: { type: 'lease', id: leaseId },
    outcome: outcome.accepted ? 'success' : 'denied',
    data: auditSafeFields<AuditValue>({
      tokenId: caller.tokenId,
      tokenKind: caller.tokenKind,
      pool: caller.pool,
      ...identity,
      failureClass: report.failureClass,
      reason: report.reason,
      ...refusal,
    }),
  };
}
