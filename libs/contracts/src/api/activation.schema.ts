import { z } from 'zod';
import { isoDateTime, uuid } from './common.schema';

// The words of an activation decision (libs/activation decides; it takes these lists from here) and the view of
// one decision, as the API answers it and the dashboard shows it.

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
 * What differs between an approval and the identity it is checked against; the order is fixed.
 * `fingerprint_scheme`: the approval was recorded under another fingerprint scheme or key (the unkeyed v1
 * `sha256:` fingerprint, or a `v2:` one under another key id), so it cannot say whether the definition changed:
 * it is stale and the server is reviewed again (docs/decisions/0025-keyed-fingerprint.md).
 */
export const STALE_FIELDS = [
  'source',
  'fingerprint',
  'fingerprint_scheme',
  'identity',
  'repository',
  'generation',
] as const;
export type StaleField = (typeof STALE_FIELDS)[number];

/** The activation state of one effective entry (libs/activation decideActivation), as the Servers page shows it. */
export const activationView = z
  .object({
    state: z.enum(ACTIVATION_STATES),
    reasons: z.array(z.enum(ACTIVATION_REASONS)),
    /** The approval, denial or revoked approval the state rests on; for `stale`, the last approval. */
    approvalId: uuid.nullable(),
    expiresAt: isoDateTime.nullable(),
    /** For `stale`: which parts of the identity changed since that approval. */
    staleBecause: z.array(z.enum(STALE_FIELDS)),
    /** The open request for the entry's current identity, if any. */
    openRequestId: uuid.nullable(),
  })
  .meta({ title: 'Activation' });
