import type { ApprovalIdentity } from './approval-identity';
import { differencesFrom, type StaleField } from './approval-match';
import type { ApprovalRecord } from './approval-record';

export interface StaleApproval {
  readonly record: ApprovalRecord;
  readonly staleBecause: readonly StaleField[];
}

function stillHolds(record: ApprovalRecord, now: Date): boolean {
  return (
    record.decision === 'approved' &&
    record.revokedAt === null &&
    (record.expiresAt === null || record.expiresAt.getTime() > now.getTime())
  );
}

function rank(candidate: StaleApproval): [number, number] {
  return [candidate.staleBecause.includes('source') ? 1 : 0, -candidate.record.decidedAt.getTime()];
}

function before(a: StaleApproval, b: StaleApproval): boolean {
  const [aSource, aTime] = rank(a);
  const [bSource, bTime] = rank(b);
  if (aSource !== bSource) return aSource < bSource;
  if (aTime !== bTime) return aTime < bTime;
  return a.record.id <= b.record.id;
}

/**
 * The approval this server held before it changed: an approval of the same name for the same principal binding
 * that would still hold (not revoked, not expired) but differs in fingerprint, identity, repository, generation
 * or source. A revoked or expired one is not "stale", it is gone. Prefers the same source (what changed in THIS
 * definition), then the most recent.
 *
 * @param subjectRecords records of the same subject (see `concernsSameSubject`) that do not match exactly.
 */
export function lastStaleApproval(
  identity: ApprovalIdentity,
  subjectRecords: readonly ApprovalRecord[],
  now: Date,
): StaleApproval | undefined {
  let best: StaleApproval | undefined;
  for (const record of subjectRecords) {
    if (!stillHolds(record, now)) continue;
    const staleBecause = differencesFrom(identity, record);
    if (staleBecause.length === 0) continue;
    const candidate = { record, staleBecause };
    if (best === undefined || before(candidate, best)) best = candidate;
  }
  return best;
}
