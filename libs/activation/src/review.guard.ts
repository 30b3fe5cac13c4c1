/** What an approver reviewed, compared with what the definition is now. */
export interface ReviewComparison {
  /** The fingerprint the approver saw (carried by the decision). */
  readonly seenFingerprint: string;
  /** The fingerprint of the entry now, resolved again when the decision arrives. */
  readonly currentFingerprint: string;
  readonly seenIdentity: string;
  readonly currentIdentity: string;
}

export type ReviewedField = 'fingerprint' | 'identity';

export type ReviewCheck =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly reason: 'changed_since_review';
      readonly changed: readonly ReviewedField[];
    };

/**
 * Compare-and-swap for decisions: a decision applies only to exactly what was reviewed. A definition changed
 * after review is refused, never applied to what the approver did not see; the new version gets its own request.
 */
export function decisionMatchesReview(review: ReviewComparison): ReviewCheck {
  const changed: ReviewedField[] = [];
  if (review.seenFingerprint !== review.currentFingerprint) changed.push('fingerprint');
  if (review.seenIdentity !== review.currentIdentity) changed.push('identity');
  return changed.length === 0 ? { ok: true } : { ok: false, reason: 'changed_since_review', changed };
}
