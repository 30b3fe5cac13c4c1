import type { EntrySource } from './activation-types';

/** What a human approver decided for one exact identity. */
export type ApprovalDecisionKind = 'approved' | 'denied';

/**
 * One stored admission decision (the Approval row). It binds to the exact identity it was decided for; fields a
 * source does not bind to (repository and generation for managed/user sources, the principal for entries that
 * are not per user) are null.
 */
export interface ApprovalRecord {
  readonly id: string;
  readonly serverName: string;
  readonly source: EntrySource;
  readonly definitionFingerprint: string;
  readonly securityIdentity: string;
  /** The user this decision is for; null for a decision that holds for the workspace alone. */
  readonly principalUserId: string | null;
  readonly repositoryIdentity: string | null;
  readonly workspaceGeneration: number | null;
  readonly decision: ApprovalDecisionKind;
  /** The human who decided (a user id): sources and service tokens never decide. */
  readonly decidedBy: string;
  readonly decidedAt: Date;
  /** Null: does not expire. At or after it, the decision no longer counts. */
  readonly expiresAt: Date | null;
  /** Set by an owner/admin: from then on this approval (or denial) no longer holds. */
  readonly revokedAt: Date | null;
}
