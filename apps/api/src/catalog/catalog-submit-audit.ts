import type { CatalogSnapshot, Lease } from '@gatehouse/db';
import type { AuditEventInput } from '../audit/audit-event';
import { auditSafeFields } from '../audit/audit-safe-text';
import { leaseAuditActor, type LeaseCaller } from '../held-leases/lease-caller';

type AuditValue = string | number | boolean | null;

/**
 * `catalog.submit` as the audit records it, accepted or refused, with the full identity: the posting token (actor,
 * kind, pool), the lease it named, and, where that lease is this token's, its workspace, server, principal and
 * definition fingerprint. Never the document: only how many tools, prompts and resources it had, and whether it
 * was complete. Tenant-written names go through auditSafeFields.
 */
export function catalogSubmitAuditEvent(
  caller: LeaseCaller,
  leaseId: string,
  lease: Lease | null,
  outcome:
    | { readonly accepted: true; readonly snapshot: CatalogSnapshot; readonly counts: SnapshotCounts }
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
  const result: Record<string, AuditValue> = outcome.accepted
    ? {
        snapshotId: outcome.snapshot.id,
        complete: outcome.snapshot.complete,
        stale: outcome.snapshot.stale,
        ...outcome.counts,
      }
    : { code: outcome.code, reason: outcome.reason };
  return {
    actor: leaseAuditActor(caller),
    action: outcome.accepted ? 'catalog.submitted' : 'catalog.submit_refused',
    target: { type: 'lease', id: leaseId },
    outcome: outcome.accepted ? 'success' : 'denied',
    data: auditSafeFields<AuditValue>({
      tokenId: caller.tokenId,
      tokenKind: caller.tokenKind,
      pool: caller.pool,
      ...identity,
      ...result,
    }),
  };
}

export interface SnapshotCounts {
  readonly tools: number;
  readonly prompts: number;
  readonly resources: number;
}
