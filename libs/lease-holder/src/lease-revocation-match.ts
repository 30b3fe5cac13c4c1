import type { RevocationEvent } from '@gatehouse/contracts';
import type { HeldLeaseFacts } from './held-leases-registry';

/**
 * Whether a revocation event concerns a lease a holder holds (decisions 0052/0053). A subject member that is
 * absent means "any"; one the holder cannot compare (the token ids: it does not know its own token's id; a
 * definition source id: the lease does not name its source's id) counts as a match, so doubt drops the lease.
 * A `userId` concerns the leases for that principal only: a workspace lease (no principal) is not that user's.
 */
export function leaseConcernedBy(event: RevocationEvent, lease: HeldLeaseFacts): boolean {
  if (event.tenantId !== null && event.tenantId !== lease.tenantId) return false;
  const subject = event.subject;
  if (subject.workspaceId !== undefined && subject.workspaceId !== lease.workspaceId) return false;
  if (subject.serverName !== undefined && subject.serverName !== lease.serverName) return false;
  if (subject.approvalId !== undefined && subject.approvalId !== lease.approvalId) return false;
  if (
    subject.userId !== undefined &&
    subject.tokenIds === undefined &&
    subject.userId !== lease.principalUserId
  )
    return false;
  return true;
}
