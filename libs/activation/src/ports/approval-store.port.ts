import type { ActivationView } from '../activation.types';
import type { ApprovalIdentity } from '../approval-identity';
import type { ApprovalDecisionKind, ApprovalRecord } from '../approval.record';
import type { ProjectionChange } from '../projection.diff';

/**
 * The events that open an approval request. Requests are opened by events, never inside a read, so listing
 * servers or deciding activation never writes.
 */
export type ApprovalRequestTrigger =
  | 'source_written'
  | 'variable_changed'
  | 'overlay_changed'
  | 'generation_bumped'
  | 'trust_changed'
  | 'lease_refused_pending'
  /** Someone asked for review (`approvals.requests.open`), e.g. after a revocation. */
  | 'review_requested';

export type ApprovalRequestStatus = 'open' | 'decided' | 'superseded';

/** A pending approval workflow item: what the approver sees and decides on. */
export interface ApprovalRequestRecord {
  readonly id: string;
  readonly identity: ApprovalIdentity;
  readonly workspaceId: string;
  /** The redacted projection the approver reviews (never a secret value). */
  readonly projection: unknown;
  /** The last approval of what this server was, when the request replaces a stale one. */
  readonly previousApprovalId: string | null;
  /** What changed since that approval's projection. */
  readonly changes: readonly ProjectionChange[];
  readonly trigger: ApprovalRequestTrigger;
  readonly authorUserIds: readonly string[];
  readonly status: ApprovalRequestStatus;
  readonly openedAt: Date;
}

export interface ApprovalQuery {
  readonly tenantId: string;
  readonly workspaceId: string;
  readonly serverName: string;
  readonly view: ActivationView;
}

export interface OpenRequestInput {
  readonly tenantId: string;
  readonly workspaceId: string;
  readonly identity: ApprovalIdentity;
  readonly projection: unknown;
  readonly previousApprovalId: string | null;
  readonly changes: readonly ProjectionChange[];
  readonly trigger: ApprovalRequestTrigger;
  readonly authorUserIds: readonly string[];
}

/** One open request per identity key: opening it again returns the one already open (adding its authors). */
export type OpenRequestResult =
  | { readonly outcome: 'opened'; readonly request: ApprovalRequestRecord }
  | { readonly outcome: 'already_open'; readonly request: ApprovalRequestRecord };

export interface RecordDecisionInput {
  readonly tenantId: string;
  readonly requestId: string;
  readonly decision: ApprovalDecisionKind;
  readonly decidedBy: string;
  /** The request's identity as the approver saw it: stored only if the request still carries exactly this. */
  readonly seenIdentityKey: string;
  readonly expiresAt: Date | null;
}

export type RecordDecisionResult =
  | { readonly ok: true; readonly approval: ApprovalRecord }
  | { readonly ok: false; readonly reason: 'request_not_found' | 'request_not_open' | 'identity_changed' };

export interface RevokeInput {
  readonly tenantId: string;
  readonly approvalId: string;
  readonly revokedBy: string;
}

export type RevokeResult =
  | { readonly ok: true; readonly approval: ApprovalRecord }
  | { readonly ok: false; readonly reason: 'approval_not_found' | 'already_revoked' };

/**
 * Where approvals and approval requests live (the API implements it over Postgres). Recording a decision is a
 * compare-and-swap on the request's identity, so a decision is never stored for a definition the approver did
 * not review.
 */
export interface ApprovalStorePort {
  /** Every decision that may bear on this server in this view; `decideActivation` picks what matches. */
  listApprovals(query: ApprovalQuery): Promise<readonly ApprovalRecord[]>;
  findOpenRequest(tenantId: string, identityKey: string): Promise<ApprovalRequestRecord | null>;
  openRequest(input: OpenRequestInput): Promise<OpenRequestResult>;
  recordDecision(input: RecordDecisionInput): Promise<RecordDecisionResult>;
  revokeApproval(input: RevokeInput): Promise<RevokeResult>;
}
