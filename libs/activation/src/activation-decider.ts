import { assertNever } from './assert-never';
import type { ActivationDecision } from './activation-decision';
import type { ActivationEntry, ActivationView, ActivationWorkspace } from './activation-types';
import { approvalIdentityOf } from './approval-identity';
import { concernsSameSubject, differencesFrom } from './approval-match';
import type { ApprovalRecord } from './approval-record';
import { latestExactOutcome } from './exact-decision-timeline';
import { lastStaleApproval } from './stale-approval-finder';
import { untrustedBecause } from './workspace-trust.guard';

/**
 * Decides whether an effective entry may be used, in a workspace, for the workspace alone or for a principal.
 * Fail closed: anything short of an approval of this exact identity that still holds is not `approved`.
 *
 * 1. `untrusted`: an untrusted workspace refuses project, local and plugin sources and every entry that requires
 *    a trusted workspace, whatever was approved.
 * 2. `pending`: an unusable entry, or a per-user entry asked about for the workspace alone (not approvable there).
 * 3. The latest human word about the exact identity (name, source, fingerprint, security identity, principal for
 *    per-user entries, repository and generation outside managed/user): `approved`, `denied` or `revoked`.
 * 4. `stale`: no word about the exact identity, but an approval that still holds for what the server was.
 * 5. `pending`: nothing at all (`no_admission_decision`), or only an expired approval (`approval_expired`).
 *
 * @param approvals the stored decisions to consider (any server, source or principal: the rest are ignored).
 */
export function decideActivation(
  entry: ActivationEntry,
  workspace: ActivationWorkspace,
  view: ActivationView,
  approvals: readonly ApprovalRecord[],
  now: Date,
): ActivationDecision {
  const distrust = untrustedBecause(entry, workspace);
  if (distrust.length > 0) return { state: 'untrusted', reasons: distrust };

  const identityResult = approvalIdentityOf(entry, workspace, view);
  if (!identityResult.ok) return { state: 'pending', reasons: [identityResult.reason] };
  const identity = identityResult.identity;

  const subject = approvals.filter((record) => concernsSameSubject(identity, record));
  const exact = subject.filter((record) => differencesFrom(identity, record).length === 0);
  const outcome = latestExactOutcome(exact, now);
  switch (outcome.kind) {
    case 'approved':
      return {
        state: 'approved',
        reasons: ['approval_matches'],
        matchedApprovalId: outcome.record.id,
        expiresAt: outcome.record.expiresAt,
      };
    case 'denied':
      return { state: 'denied', reasons: ['denial_matches'], matchedApprovalId: outcome.record.id };
    case 'revoked':
      return { state: 'revoked', reasons: ['approval_revoked'], matchedApprovalId: outcome.record.id };
    case 'none': {
      const stale = lastStaleApproval(
        identity,
        subject.filter((record) => !exact.includes(record)),
        now,
      );
      if (stale !== undefined) {
        return {
          state: 'stale',
          reasons: ['approval_stale'],
          matchedApprovalId: stale.record.id,
          staleBecause: stale.staleBecause,
        };
      }
      return { state: 'pending', reasons: [outcome.expired ? 'approval_expired' : 'no_admission_decision'] };
    }
    default:
      return assertNever(outcome);
  }
}
