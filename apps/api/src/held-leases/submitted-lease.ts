import { lockHeldLease, type Lease, type TenantTx } from '@gatehouse/db';
import type { ProblemError } from '@gatehouse/platform';
import { lockAuditChain } from '../audit/append-audit-event';
import type { DefinitionCipher } from '../effective-view/definition-cipher';
import { notFound } from '../shared/command-problems';
import { endedState } from './lease-ended';
import { leaseEnded } from './lease-problems';
import { decideLeaseStanding } from './lease-standing';

/**
 * The lease a worker reports for (catalog.submit, probes.submit), as it stands now: live and held, or the
 * refusal with the lease row when there is one (the audit names it) and the short reason word.
 */
export type SubmittedLease =
  | { readonly ok: true; readonly lease: Lease }
  | {
      readonly ok: false;
      readonly lease: Lease | null;
      readonly problem: ProblemError;
      readonly reason: string | null;
    };

/**
 * The one check of a lease a report is posted for, shared by catalog.submit and probes.submit. A lease this token
 * does not hold is 404 (another token's, another tenant's, none); a released, revoked or expired one is 409
 * `lease_ended`, and so is one whose ground is gone now: activation is re-decided for the lease's one server
 * (decideLeaseStanding), and a lease it no longer approves is revoked HERE (in the caller's transaction, which
 * must commit before the refusal is thrown) even when no ledger event ended it (decision 0071). The audit head and
 * the lease row are then locked in the one lock order of lease writers and the row read again under them, so a
 * revocation that committed meanwhile is seen and a later one waits for the caller's commit.
 */
export async function standingSubmittedLease(
  tx: TenantTx,
  cipher: DefinitionCipher,
  held: { readonly leaseId: string; readonly tokenId: string },
  now: Date,
): Promise<SubmittedLease> {
  const read = await tx.lease.findFirst({ where: { id: held.leaseId, tokenId: held.tokenId } });
  if (read === null) return { ok: false, lease: null, problem: notFound('lease'), reason: null };
  // Activation is re-decided before the locks (it reads definitions and approvals), and only for a live row.
  const standing = endedState(read, now) === null ? await decideLeaseStanding(tx, cipher, read, now) : null;
  await lockAuditChain(tx);
  const lease = await lockHeldLease(tx, read.id, held.tokenId);
  if (lease === null) return { ok: false, lease: null, problem: notFound('lease'), reason: null };
  const ended = endedState(lease, now);
  if (ended !== null)
    return {
      ok: false,
      lease,
      problem: leaseEnded(ended.state, ended.reason),
      reason: ended.reason ?? ended.state,
    };
  if (standing === null) throw new Error('lease read ended, then live');
  if (!standing.holds) {
    const revoked = await tx.lease.update({
      where: { id: lease.id },
      data: { revokedAt: now, revokedReason: standing.reason },
    });
    return {
      ok: false,
      lease: revoked,
      problem: leaseEnded('revoked', standing.reason),
      reason: standing.reason,
    };
  }
  return { ok: true, lease };
}
