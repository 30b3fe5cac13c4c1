import type { SourceRefView } from './definition-views';

// The approval and host-policy shapes the dashboard reads from the API (libs/commands' approval.commands.ts,
// activation.schemas.ts and host-policy.commands.ts declare them; the dashboard may not import them). Only what
// the Approvals, Servers and Host policy pages render. Projections and diffs are the API's redacted ones: a
// masked secret arrives masked, and nothing here can hold more than the API chose to send.

export const ACTIVATION_STATES = ['approved', 'pending', 'denied', 'stale', 'untrusted', 'revoked'] as const;
export type ActivationState = (typeof ACTIVATION_STATES)[number];

/** Which part of the identity changed since the last approval (libs/activation STALE_FIELDS). */
export type StaleField =
  'source' | 'fingerprint' | 'fingerprint_scheme' | 'identity' | 'repository' | 'generation';

/** The activation state of one effective entry, as the Servers page shows it. */
export interface ActivationView {
  readonly state: ActivationState;
  /** Codes (libs/activation ACTIVATION_REASONS): `no_admission_decision`, `approval_matches`, ... */
  readonly reasons: readonly string[];
  readonly approvalId: string | null;
  readonly expiresAt: string | null;
  readonly staleBecause: readonly StaleField[];
  readonly openRequestId: string | null;
}

export interface ApprovalIdentityView {
  /** `aid:v1:<sha256 hex>`: what a decision posts back as `seenIdentityKey`. */
  readonly key: string;
  readonly serverName: string;
  readonly source: SourceRefView;
  readonly definitionFingerprint: string;
  readonly securityIdentity: string;
  readonly principalUserId: string | null;
  readonly repositoryIdentity: string | null;
  readonly workspaceGeneration: number | null;
}

/** One field that differs from the last approved projection; `before`/`after` are redacted values. */
export interface ProjectionChangeView {
  readonly kind: 'added' | 'removed' | 'changed';
  readonly path: readonly string[];
  readonly before?: unknown;
  readonly after?: unknown;
}

export const APPROVAL_REQUEST_TRIGGERS = [
  'source_written',
  'variable_changed',
  'overlay_changed',
  'generation_bumped',
  'trust_changed',
  'lease_refused_pending',
  'review_requested',
] as const;
export type ApprovalRequestTrigger = (typeof APPROVAL_REQUEST_TRIGGERS)[number];

export type ApprovalRequestStatus = 'open' | 'decided' | 'superseded';

export interface ApprovalRequestView {
  readonly id: string;
  readonly workspaceId: string;
  readonly status: ApprovalRequestStatus;
  readonly trigger: ApprovalRequestTrigger;
  readonly identity: ApprovalIdentityView;
  /** The redacted projection to review. */
  readonly projection: Readonly<Record<string, unknown>>;
  readonly previousApprovalId: string | null;
  readonly changes: readonly ProjectionChangeView[];
  readonly authorUserIds: readonly string[];
  readonly openedAt: string;
  readonly closedAt: string | null;
  readonly closedBy: string | null;
  readonly approvalId: string | null;
}

export interface ApprovalView {
  readonly id: string;
  readonly workspaceId: string;
  readonly requestId: string | null;
  readonly identity: ApprovalIdentityView;
  readonly decision: 'approved' | 'denied';
  readonly decidedBy: string;
  readonly decidedAt: string;
  readonly expiresAt: string | null;
  readonly revokedAt: string | null;
  readonly revokedBy: string | null;
}

export type ApprovalListState = 'all' | 'active' | 'revoked';
export type ApprovalRequestListStatus = 'open' | 'closed' | 'all';

/** An exact argv prefix: a child's argv must start with these strings, in order. */
export type ArgvPrefix = readonly string[];

export interface HostPolicyView {
  readonly stdioCommands: readonly ArgvPrefix[];
  readonly headerHelpers: readonly ArgvPrefix[];
  readonly privateCidrs: readonly string[];
  readonly traceContextOrigins: readonly string[];
  readonly fourEyes: boolean;
  readonly updatedAt: string | null;
}

/** A pool's ceiling as a tenant may see it (never the operator's denylist, uid/gid or loopback setting). */
export interface PoolCeilingView {
  readonly pool: string;
  readonly stdio: boolean;
  readonly headerHelpers: boolean;
  readonly allowedRoots: readonly string[];
  readonly commandCeiling: readonly ArgvPrefix[];
  readonly privateRangesTenantsMayOptInto: readonly string[];
}

export interface HostPolicyWithCeilingView {
  readonly policy: HostPolicyView;
  readonly pools: readonly PoolCeilingView[];
}
