import type { RevocationSubject } from '@gatehouse/contracts';
import type { Lease, Prisma } from '../generated/client';
import type { TenantTx } from '../tenancy/prisma-client';

// The lease rows a ledger event ends (docs/decisions/0071-ledger-events-revoke-leases.md). The row is the durable
// truth of whether a lease still holds: renew and catalog.submit read it, and holders that miss the event find
// it there. Run in the event's own transaction, so the change, its event and the ended leases commit together.

/**
 * Which leases a subject concerns, as a filter over the tenant's leases (row-level security keeps it to the
 * transaction's tenant). An absent member means any. `definitionSourceId` never narrows: a write to one source
 * can change which entry wins a name in another, and a lease does not record which sources its view had.
 * `tokenIds` and `userId` together are a union: the tokens' leases, and the principal's.
 */
export function leasesConcernedBy(subject: RevocationSubject): Prisma.LeaseWhereInput {
  const where: Prisma.LeaseWhereInput = {};
  if (subject.workspaceId !== undefined) where.workspaceId = subject.workspaceId;
  if (subject.serverName !== undefined) where.serverName = subject.serverName;
  if (subject.approvalId !== undefined) where.approvalId = subject.approvalId;
  const byToken = subject.tokenIds === undefined ? null : { tokenId: { in: [...subject.tokenIds] } };
  const byPrincipal = subject.userId === undefined ? null : { principalUserId: subject.userId };
  if (byToken !== null && byPrincipal !== null) where.OR = [byToken, byPrincipal];
  else if (byToken !== null) Object.assign(where, byToken);
  else if (byPrincipal !== null) Object.assign(where, byPrincipal);
  return where;
}

/**
 * Marks revoked, now, every lease of the transaction's tenant that the subject concerns and that has not ended
 * by release or an earlier revocation (an expired one too: why it ended is then on the row). `reason` is the
 * event's kind, a short word. Returns how many leases it ended.
 */
export async function revokeLeasesConcernedBy(
  tx: TenantTx,
  subject: RevocationSubject,
  reason: string,
  at: Date = new Date(),
): Promise<number> {
  const ended = await tx.lease.updateMany({
    where: { ...leasesConcernedBy(subject), releasedAt: null, revokedAt: null },
    data: { revokedAt: at, revokedReason: reason },
  });
  return ended.count;
}

/**
 * The lease `tokenId` holds, read under a row lock held to the end of the transaction (null: no such lease of
 * this token in the tenant). A revocation committing meanwhile either is seen here, or waits for this
 * transaction: what renew and catalog.submit write is never accepted on a lease whose end committed first.
 */
export async function lockHeldLease(tx: TenantTx, leaseId: string, tokenId: string): Promise<Lease | null> {
  const locked = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM leases WHERE id = ${leaseId}::uuid AND token_id = ${tokenId}::uuid FOR UPDATE`;
  if (locked.length === 0) return null;
  return tx.lease.findUnique({ where: { id: leaseId } });
}
