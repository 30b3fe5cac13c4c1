import { assertNever } from './assert-never';
import type { ApprovalRecord } from './approval-record';

/** What the records of ONE exact identity add up to. */
export type ExactOutcome =
  | { readonly kind: 'approved'; readonly record: ApprovalRecord }
  | { readonly kind: 'denied'; readonly record: ApprovalRecord }
  | { readonly kind: 'revoked'; readonly record: ApprovalRecord }
  /** Nothing holds; `expired` when the latest word was an approval that has run out. */
  | { readonly kind: 'none'; readonly expired: boolean };

type EventKind = 'revoked' | 'denied' | 'expired' | 'lifted' | 'approved';

interface TimelineEvent {
  readonly at: number;
  readonly kind: EventKind;
  readonly record: ApprovalRecord;
}

// On the same instant the more restrictive word wins: a revocation recorded at the moment of an approval
// revokes it.
function severity(kind: EventKind): number {
  switch (kind) {
    case 'revoked':
      return 4;
    case 'denied':
      return 3;
    case 'expired':
    case 'lifted':
      return 2;
    case 'approved':
      return 1;
    default:
      return assertNever(kind);
  }
}

function hasLapsed(record: ApprovalRecord, now: Date): boolean {
  return record.expiresAt !== null && record.expiresAt.getTime() <= now.getTime();
}

function eventOf(record: ApprovalRecord, now: Date): TimelineEvent {
  switch (record.decision) {
    case 'approved':
      // A revocation is a later human word about the same identity: it counts from when it was made, and
      // stays in force until someone approves the identity again.
      if (record.revokedAt !== null) return { at: record.revokedAt.getTime(), kind: 'revoked', record };
      if (hasLapsed(record, now)) return { at: record.decidedAt.getTime(), kind: 'expired', record };
      return { at: record.decidedAt.getTime(), kind: 'approved', record };
    case 'denied':
      // Revoking a denial lifts it; it never turns into an approval.
      if (record.revokedAt !== null) return { at: record.revokedAt.getTime(), kind: 'lifted', record };
      if (hasLapsed(record, now)) return { at: record.decidedAt.getTime(), kind: 'lifted', record };
      return { at: record.decidedAt.getTime(), kind: 'denied', record };
    default:
      return assertNever(record.decision);
  }
}

function later(a: TimelineEvent, b: TimelineEvent): TimelineEvent {
  if (a.at !== b.at) return a.at > b.at ? a : b;
  const bySeverity = severity(a.kind) - severity(b.kind);
  if (bySeverity !== 0) return bySeverity > 0 ? a : b;
  // Same instant, same word: pick by id so the answer never depends on the order records were listed in.
  return a.record.id <= b.record.id ? a : b;
}

/**
 * The latest human word about one exact identity decides: an approval, a denial, a revocation, or nothing (an
 * expired approval, a lifted denial). So revoked wins over every approval given before (or at) the revocation,
 * and an identity can still be approved again afterwards by a new, later decision.
 *
 * @param records records that match the identity exactly (see `matchesExactly`).
 */
export function latestExactOutcome(records: readonly ApprovalRecord[], now: Date): ExactOutcome {
  let latest: TimelineEvent | undefined;
  for (const record of records) {
    const event = eventOf(record, now);
    latest = latest === undefined ? event : later(latest, event);
  }
  if (latest === undefined) return { kind: 'none', expired: false };
  switch (latest.kind) {
    case 'approved':
      return { kind: 'approved', record: latest.record };
    case 'denied':
      return { kind: 'denied', record: latest.record };
    case 'revoked':
      return { kind: 'revoked', record: latest.record };
    case 'expired':
      return { kind: 'none', expired: true };
    case 'lifted':
      return { kind: 'none', expired: false };
    default:
      return assertNever(latest.kind);
  }
}
