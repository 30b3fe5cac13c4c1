import type { ActivationView } from '@/views/approval-views';
import type { EffectiveEntryView, EffectiveViewKind } from '@/views/definition-views';
import { notAdmissibleLine } from './approval-labels';

// What the Servers pages' approval parts share: where a review is asked for, and what the statuses say together.

export interface ReviewTarget {
  readonly workspaceId: string;
  readonly view: EffectiveViewKind;
  /** Whether the reader may open the approval queue (owners, admins, approvers). */
  readonly canReadApprovals: boolean;
  readonly canRequestReview: boolean;
}

/**
 * What the entry's statuses say together (docs/architecture/approvals.md): a disabled server shows the
 * decision beneath its overlay (the approval in force) and the overlay's reason; an approved one that no pool
 * may ever run says so, with the API's reasons (the dashboard never guesses admissibility).
 */
export function agreement(entry: EffectiveEntryView): { activation: ActivationView; lines: string[] } {
  const lines: string[] = [];
  if (entry.status === 'disabled') {
    // Who disabled it is the Status column's; the overlay's own words are said here, beside the approval.
    if (entry.overlay?.reason) lines.push(`Why disabled: “${entry.overlay.reason}”`);
    if (entry.beneathOverlay !== null) return { activation: entry.beneathOverlay, lines };
    return { activation: entry.activation, lines };
  }
  if (entry.admission !== null && !entry.admission.admissible)
    lines.push(notAdmissibleLine(entry.admission.reasons));
  return { activation: entry.activation, lines };
}

export function openRequestOf(activation: ActivationView, canReadApprovals: boolean) {
  if (activation.openRequestId === null) return undefined;
  return { href: canReadApprovals ? `/approvals/${activation.openRequestId}` : null };
}
