import { z } from 'zod';
import { isoDateTime, page, pageInput, uuid } from './common.schema';
import { definitionServerName, definitionTier, EFFECTIVE_VIEWS } from './definition.schema';

// The approval workflow (docs/architecture/approvals.md). Requests are opened by events (a source written, a
// variable or overlay changed, a generation bump, trust, a lease refused as pending, someone asking for
// review), never by a read. A decision carries what the approver saw (fingerprint and identity key) and is
// refused if the definition changed meanwhile. Projections are the redacted ones: no output here carries a
// secret value.

const json = z.record(z.string(), z.unknown());
const sourceRef = z.object({ tier: definitionTier, origin: z.string() }).meta({ title: 'ApprovalSourceRef' });
const identityKey = z
  .string()
  .regex(/^aid:v1:[0-9a-f]{64}$/, 'an approval identity key (aid:v1:<sha256 hex>)');
const fingerprint = z.string().min(1).max(200);

/** The exact identity an approval binds to (every field must match for it to count). */
export const approvalIdentityView = z
  .object({
    key: identityKey,
    serverName: z.string(),
    source: sourceRef,
    definitionFingerprint: z.string(),
    securityIdentity: z.string(),
    /** Set for per-user entries: the approval holds for this user alone. */
    principalUserId: uuid.nullable(),
    /** Set for sources outside managed/user. */
    repositoryIdentity: z.string().nullable(),
    workspaceGeneration: z.number().int().nullable(),
  })
  .meta({ title: 'ApprovalIdentity' });

/** One field that differs from the last approved projection; `before`/`after` are redacted values. */
export const projectionChangeView = z
  .object({
    kind: z.enum(['added', 'removed', 'changed']),
    path: z.array(z.string()),
    before: z.unknown().optional(),
    after: z.unknown().optional(),
  })
  .meta({ title: 'ProjectionChange' });

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

/**
 * `withdrawn`: closed by itself, because the identity it was opened for no longer exists in its view (a personal
 * variable unset, the server changed back or gone): there is nothing left to decide.
 */
export const APPROVAL_REQUEST_STATUSES = ['open', 'decided', 'superseded', 'withdrawn'] as const;

/** Why a request closed: decided, superseded by a request for the server's newer identity, or its identity gone. */
export const APPROVAL_REQUEST_CLOSE_REASONS = ['decided', 'superseded', 'identity_gone'] as const;

/**
 * What opened a request, beyond its trigger: the variable, source or overlay the event changed (names only,
 * never a value). Null where the event names nothing more (a generation bump, trust, asking for review) or for
 * requests opened before causes were recorded.
 */
export const APPROVAL_REQUEST_CAUSE_KINDS = [
  'variable_set',
  'variable_unset',
  'source_written',
  'overlay_set',
  'overlay_cleared',
] as const;
export const approvalRequestCauseView = z
  .object({
    kind: z.enum(APPROVAL_REQUEST_CAUSE_KINDS),
    /** What it names: the variable (variable_*), the source's origin (source_written), the server (overlay_*). */
    subject: z.string(),
    /** For a variable: whose it is (a user variable is the principal's own). */
    scope: z.enum(['tenant', 'workspace', 'user']).nullable(),
  })
  .meta({ title: 'ApprovalRequestCause' });

/**
 * What a decider writes beside a decision: optional for approve, required for deny and revoke. Shown to
 * approvers and in the audit log, so it is plain text of bounded length (no control characters).
 */
export const MAX_DECISION_REASON = 500;
export const decisionReason = z
  .string()
  .trim()
  .min(1, 'write a reason')
  .max(MAX_DECISION_REASON, `at most ${MAX_DECISION_REASON} characters`)
  .refine((value) => !/[\u0000-\u0008\u000b-\u001f\u007f]/.test(value), 'no control characters');

export const approvalRequestView = z
  .object({
    id: uuid,
    workspaceId: uuid,
    status: z.enum(APPROVAL_REQUEST_STATUSES),
    trigger: z.enum(APPROVAL_REQUEST_TRIGGERS),
    identity: approvalIdentityView,
    /** The redacted projection to review. */
    projection: json,
    /** The last approval of what this server was, when this request replaces a stale one. */
    previousApprovalId: uuid.nullable(),
    /** What changed since that approval's projection (empty for a first request). */
    changes: z.array(projectionChangeView),
    /** Who made the changes this request covers (with four-eyes on, none of them may approve it). */
    authorUserIds: z.array(uuid),
    openedAt: isoDateTime,
    closedAt: isoDateTime.nullable(),
    closedBy: uuid.nullable(),
    /** The decision recorded for it (status `decided`). */
    approvalId: uuid.nullable(),
    /** The decision's own words (status `decided`), when the decider wrote any. */
    decisionReason: z.string().nullable(),
    /** What opened it (the variable, source or overlay of the event). */
    cause: approvalRequestCauseView.nullable(),
    /** Why it closed; null while open. */
    closeReason: z.enum(APPROVAL_REQUEST_CLOSE_REASONS).nullable(),
    /** Whether the tenant's four-eyes rule is on now: then none of `authorUserIds` may approve it. */
    fourEyes: z.boolean(),
  })
  .meta({ title: 'ApprovalRequest' });
export const approvalRequestPage = page(approvalRequestView).meta({ title: 'ApprovalRequestPage' });

export const approvalView = z
  .object({
    id: uuid,
    workspaceId: uuid,
    requestId: uuid.nullable(),
    identity: approvalIdentityView,
    decision: z.enum(['approved', 'denied']),
    decidedBy: uuid,
    decidedAt: isoDateTime,
    /** What the decider wrote (always present for a denial recorded since reasons exist). */
    reason: z.string().nullable(),
    expiresAt: isoDateTime.nullable(),
    revokedAt: isoDateTime.nullable(),
    revokedBy: uuid.nullable(),
    revokeReason: z.string().nullable(),
  })
  .meta({ title: 'Approval' });
export const approvalPage = page(approvalView).meta({ title: 'ApprovalPage' });

export const APPROVAL_REQUEST_LIST_STATUSES = ['open', 'closed', 'all'] as const;
export const APPROVAL_LIST_STATES = ['all', 'active', 'revoked'] as const;

export const listApprovalRequestsInput = z.strictObject({
  ...pageInput,
  status: z.enum(APPROVAL_REQUEST_LIST_STATUSES).default('open'),
  workspaceId: uuid.optional(),
  serverName: definitionServerName.optional(),
});
export const getApprovalRequestInput = z.strictObject({ requestId: uuid });
export const openApprovalRequestInput = z.strictObject({
  workspaceId: uuid,
  serverName: definitionServerName,
  view: z.enum(EFFECTIVE_VIEWS).default('workspace'),
});
export const decideApprovalRequestInput = z.strictObject({
  requestId: uuid,
  decision: z.enum(['approve', 'deny']),
  /** The definition fingerprint the approver reviewed (compare-and-swap). */
  seenFingerprint: fingerprint,
  /** The identity key the approver reviewed (compare-and-swap). */
  seenIdentityKey: identityKey,
  /** When the approval stops counting; omitted: it holds until revoked or the definition changes. */
  expiresAt: isoDateTime.optional(),
  /** Why: optional for approve, required for deny (`reason_required`). */
  reason: decisionReason.optional(),
});
export const listApprovalsInput = z.strictObject({
  ...pageInput,
  workspaceId: uuid.optional(),
  serverName: definitionServerName.optional(),
  /** `active`: not revoked (expired ones included: they are history too); `revoked`: revoked only. */
  state: z.enum(APPROVAL_LIST_STATES).default('all'),
});
export const revokeApprovalInput = z.strictObject({
  approvalId: uuid,
  /** Why the decision no longer holds: required. */
  reason: decisionReason,
});
