import {
  ACTIVATION_REASONS,
  ACTIVATION_STATES,
  type ActivationReason,
  type ActivationState,
} from '@gatehouse/contracts';
import type { StaleField } from './approval-match';

// The lists are the API's words too: declared once in @gatehouse/contracts, which the dashboard reads.
export { ACTIVATION_REASONS, ACTIVATION_STATES, type ActivationReason, type ActivationState };

/**
 * The activation decision for one entry, in one workspace, for one view. Only `approved` lets an entry go
 * further (to admission and a lease). `matchedApprovalId` names the record the state rests on: the exact
 * approval, denial or revoked approval, or for `stale` the last approval of what the server was (whose
 * projection a new request diffs against).
 */
export type ActivationDecision =
  | {
      readonly state: 'approved';
      readonly reasons: readonly ActivationReason[];
      readonly matchedApprovalId: string;
      /** A lease based on this decision expires no later than this. */
      readonly expiresAt: Date | null;
    }
  | {
      readonly state: 'denied';
      readonly reasons: readonly ActivationReason[];
      readonly matchedApprovalId: string;
    }
  | {
      readonly state: 'revoked';
      readonly reasons: readonly ActivationReason[];
      readonly matchedApprovalId: string;
    }
  | {
      readonly state: 'stale';
      readonly reasons: readonly ActivationReason[];
      readonly matchedApprovalId: string;
      readonly staleBecause: readonly StaleField[];
    }
  | { readonly state: 'pending'; readonly reasons: readonly ActivationReason[] }
  | { readonly state: 'untrusted'; readonly reasons: readonly ActivationReason[] };
