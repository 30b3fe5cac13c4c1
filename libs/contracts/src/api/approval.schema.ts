import { z } from 'zod';
import { isoDateTime, page, pageInput, uuid } from './common.schema';
import { definitionServerName, definitionTier, EFFECTIVE_VIEWS } from './definition.schema';

// The approval workflow (issue 6, part 4). Requests are opened by events (a source written, a variable or overlay
// changed, a generation bump, trust, a lease refused as pending, someone asking for review), never by a read.
// A decision carries what the approver saw (fingerprint and identity key) and is refused if the definition
// changed meanwhile. Projections are the redacted ones: no output here carries a secret value.

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

export const APPROVAL_REQUEST_STATUSES = ['open', 'decided', 'superseded'] as const;

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
    expiresAt: isoDateTime.nullable(),
    revokedAt: isoDateTime.nullable(),
    revokedBy: uuid.nullable(),
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
});
export const listApprovalsInput = z.strictObject({
  ...pageInput,
  workspaceId: uuid.optional(),
  serverName: definitionServerName.optional(),
  /** `active`: not revoked (expired ones included: they are history too); `revoked`: revoked only. */
  state: z.enum(APPROVAL_LIST_STATES).default('all'),
});
export const revokeApprovalInput = z.strictObject({ approvalId: uuid });
