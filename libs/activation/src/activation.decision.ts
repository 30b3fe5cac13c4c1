import type { StaleField } from './approval.match';

export const ACTIVATION_STATES = ['approved', 'pending', 'denied', 'stale', 'untrusted', 'revoked'] as const;
export type ActivationState = (typeof ACTIVATION_STATES)[number];

/**
 * Why a decision came out as it did:
 * - `untrusted_workspace_source`: a project, local or plugin source in an untrusted workspace.
 * - `requires_trusted_workspace`: the definition asks for a trusted workspace and this one is not.
 * - `entry_unusable`: the entry did not resolve (an unset variable, say): nothing exact to approve.
 * - `principal_required`: a per-user entry asked about for the workspace alone, where it is not approvable.
 * - `no_admission_decision`: no approval or denial holds for this exact identity (fail closed).
 * - `approval_expired`: the only approval for this exact identity has expired.
 * - `approval_matches`: an approval holds for this exact identity.
 * - `denial_matches`: a denial holds for this exact identity.
 * - `approval_revoked`: the approval for this exact identity was revoked.
 * - `approval_stale`: an approval holds for what this server was, not for what it is now.
 */
export const ACTIVATION_REASONS = [
  'untrusted_workspace_source',
  'requires_trusted_workspace',
  'entry_unusable',
  'principal_required',
  'no_admission_decision',
  'approval_expired',
  'approval_matches',
  'denial_matches',
  'approval_revoked',
  'approval_stale',
] as const;
export type ActivationReason = (typeof ACTIVATION_REASONS)[number];

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
