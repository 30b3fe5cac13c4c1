import { randomUUID } from 'node:crypto';
import {
  type ApprovalIdentity,
  type ApprovalRequestTrigger,
  type ProjectionChange,
} from '@gatehouse/activation';
import type { approvalRequestCauseView } from '@gatehouse/contracts';
import type { ApprovalRequest, TenantTx } from '@gatehouse/db';
import type { z } from 'zod';
import { appendAuditEvents } from '../audit/append-audit-event';
import { auditSafeFields, auditSafeText } from '../audit/audit-safe-text';
import type { AuditEventInput } from '../audit/audit-event';
import type { DefinitionCipher } from '../effective-view/definition-cipher';
import { identityAuditData } from './approval-identity-audit';
import { identityOfRow } from '../effective-view/activation-inputs';
import type { AffectedView } from '../effective-view/affected-views';
import { reviewChanges, storedReviewOf } from './review-values';
import {
  loadEffectiveViews,
  type EffectiveViews,
  type EvaluatedEntry,
} from '../effective-view/effective-views';

/** Which views an event may have changed: a workspace, for the workspace alone and/or some users. */
/** What the event changed, as a request names it (names only, never a value). */
export type ApprovalRequestCause = z.infer<typeof approvalRequestCauseView>;

export interface OpenRequestsArgs {
  readonly tenantId: string;
  readonly views: readonly AffectedView[];
  readonly trigger: ApprovalRequestTrigger;
  /** The person whose change this was (four-eyes: they may not approve it); null for a service. */
  readonly authorUserId: string | null;
  readonly actor: AuditEventInput['actor'];
  /** Only this server (asking for review of one server); all entries otherwise. */
  readonly serverName?: string;
  /** What the event changed, stored on the requests it opens. */
  readonly cause?: ApprovalRequestCause | null;
}

export interface OpenedRequest {
  readonly request: ApprovalRequest;
  readonly outcome: 'opened' | 'already_open';
}

/**
 * Whether this decision calls for a human to look: nothing decided yet, the last approval expired, or an approval
 * of what the server was (stale). Denied, revoked and untrusted entries wait for a person to ask again (or for
 * the definition to change), so a denial is not re-queued by every unrelated edit.
 */
function needsReview(evaluated: EvaluatedEntry, trigger: ApprovalRequestTrigger): boolean {
  const { decision } = evaluated;
  switch (decision.state) {
    case 'stale':
      return true;
    case 'pending':
      return (
        decision.reasons.includes('no_admission_decision') || decision.reasons.includes('approval_expired')
      );
    case 'denied':
    case 'revoked':
      return trigger === 'review_requested';
    case 'approved':
    case 'untrusted':
      return false;
    default: {
      const unreachable: never = decision;
      throw new Error(`unknown decision ${String(unreachable)}`);
    }
  }
}

/** What the request stores as reviewed: the redacted projection and its value digests (review-values.ts). */
function projectionOf(context: EffectiveViews, evaluated: EvaluatedEntry): object {
  return storedReviewOf(evaluated.entry, context.snapshot.fingerprintKey);
}

/**
 * Opens approval requests after an event (a source written, a variable or overlay changed, a generation bump,
 * trust, a lease refused as pending, someone asking), inside the event's own transaction: the request exists
 * exactly when the change does. Reads never call this.
 *
 * - One open request per identity per workspace: an existing one is left as it is. The event did not change what
 *   it covers (same identity), so the event's author did not author any of it.
 * - An open request of the same server and principal binding for an identity that is no longer current is
 *   superseded; its authors carry over to the new request, so four-eyes still covers every change since the
 *   last decision.
 * - A new request's authors are the event's author, whoever last wrote the source the entry comes from and the
 *   variables it reads, and the superseded requests' authors.
 * - A request replacing a stale approval carries the field-level diff from that approval's projection, and
 *   names every env and header key whose value changed, was added or removed (never a value).
 * - A user's own view is re-decided only where they have something of their own (a user or local source, a
 *   user variable, an own overlay); otherwise it resolves exactly like the workspace's, which is decided anyway.
 *   A per-user entry that resolves exactly like the workspace's (effective-view activation-inputs resolvesLikeWorkspace) has the
 *   workspace's identity, so the workspace's request covers it: no second request for the same review.
 * - An open request of a view whose identity that view no longer has, and that no new request supersedes, is
 *   withdrawn (decision 0087).
 */
export async function openApprovalRequests(
  tx: TenantTx,
  cipher: DefinitionCipher,
  args: OpenRequestsArgs,
): Promise<OpenedRequest[]> {
  if (args.views.length === 0) return [];
  const context = await loadEffectiveViews(tx, cipher, {
    tenantId: args.tenantId,
    workspaceIds: args.views.map((view) => view.workspace.id),
    userIds: args.views.flatMap((view) => (view.userId === null ? [] : [view.userId])),
  });
  const workspaceViews = new Set(
    args.views.filter((view) => view.userId === null).map((view) => view.workspace.id),
  );
  const existing: OpenedRequest[] = [];
  const planned: PlannedRequest[] = [];
  const gone: ApprovalRequest[] = [];
  const seen = new Set<string>();
  const now = new Date();
  const concerned = (serverName: string) => args.serverName === undefined || serverName === args.serverName;
  for (const view of args.views) {
    const sameAsWorkspace =
      view.userId !== null && !context.snapshot.hasOwnRows(view.workspace.id, view.userId);
    if (sameAsWorkspace) {
      // Nothing of the user's own here: no entry is theirs alone, so none of their requests is current.
      gone.push(
        ...context
          .openRequestsBoundTo(view.workspace.id, view.userId)
          .filter((request) => concerned(request.serverName)),
      );
      if (workspaceViews.has(view.workspace.id)) continue;
    }
    const evaluated = context.evaluate(view.workspace, view.userId, now);
    const current = new Set<string>();
    for (const item of evaluated.entries) {
      if (!concerned(item.entry.name)) continue;
      if (item.identity !== null) current.add(item.identity.key);
      if (item.beneathIdentityKey !== null) current.add(item.beneathIdentityKey);
      if (item.identity === null || !needsReview(item, args.trigger)) continue;
      const seenKey = `${view.workspace.id}/${item.identity.key}`;
      if (seen.has(seenKey)) continue;
      seen.add(seenKey);
      if (item.openRequest !== null) existing.push({ request: item.openRequest, outcome: 'already_open' });
      else planned.push(planRequest(context, args, view, item, item.identity));
    }
    if (!sameAsWorkspace) {
      gone.push(
        ...context
          .openRequestsBoundTo(view.workspace.id, view.userId)
          .filter((request) => concerned(request.serverName) && !current.has(request.identityKey)),
      );
    }
  }
  const opened = await insertPlanned(tx, args, planned, now);
  const superseded = new Set(planned.flatMap((plan) => plan.supersedes));
  await withdrawGone(
    tx,
    args,
    gone.filter((request) => !superseded.has(request.id)),
    now,
  );
  return [...existing, ...opened];
}

/**
 * Closes (`withdrawn`, reason `identity_gone`) the open requests whose identity no longer exists in the view they
 * were opened for, with no newer request to supersede them: a personal variable unset, the server back to an
 * approved identity, gone, or resolving like the workspace's. Nothing is left to decide on them, and an approver
 * must not be shown one as approvable. Audited in the event's transaction.
 */
async function withdrawGone(
  tx: TenantTx,
  args: OpenRequestsArgs,
  requests: readonly ApprovalRequest[],
  now: Date,
): Promise<void> {
  const ids = [...new Set(requests.map((request) => request.id))];
  if (ids.length === 0) return;
  // Only what this transaction closed is audited: a concurrent event may have closed some first.
  const closed = await tx.approvalRequest.updateManyAndReturn({
    where: { id: { in: ids }, status: 'open' },
    data: {
      status: 'withdrawn',
      openKey: null,
      closedAt: now,
      closedBy: args.authorUserId,
      closeReason: 'identity_gone',
    },
  });
  await appendAuditEvents(
    tx,
    closed.map((request) => ({
      actor: args.actor,
      action: 'approvals.requests.withdrawn',
      target: { type: 'approval_request', id: request.id },
      outcome: 'success',
      data: {
        workspaceId: request.workspaceId,
        reason: 'identity_gone',
        trigger: args.trigger,
        ...auditSafeFields(identityAuditData(identityOfRow(request))),
      },
    })),
  );
}

/** A request to open, with everything decided before any write. */
interface PlannedRequest {
  readonly id: string;
  readonly workspaceId: string;
  readonly identity: ApprovalIdentity;
  readonly projection: object;
  readonly previous: { readonly id: string; readonly changes: ProjectionChange[] } | null;
  readonly authors: string[];
  readonly supersedes: string[];
}

function planRequest(
  context: EffectiveViews,
  args: OpenRequestsArgs,
  view: AffectedView,
  item: EvaluatedEntry,
  identity: ApprovalIdentity,
): PlannedRequest {
  // Requests of the same server and principal binding for what it no longer is: closed, their authors kept.
  const outdated = context
    .openRequestsAbout(view.workspace.id, identity.serverName, identity.principalUserId)
    .filter((request) => request.identityKey !== identity.key);
  const eventAuthor = args.authorUserId === null ? [] : [args.authorUserId];
  const authors = [
    ...outdated.flatMap((request) => request.authorUserIds),
    ...eventAuthor,
    ...writersOf(context, view, item, identity),
  ];
  return {
    id: randomUUID(),
    workspaceId: view.workspace.id,
    identity,
    projection: projectionOf(context, item),
    previous: previousApproval(context, item),
    authors: [...new Set(authors)],
    supersedes: outdated.map((request) => request.id),
  };
}

/**
 * Who shaped what the entry resolves to since the last approval of it that still holds (a denial, a revoked
 * approval or none: since ever): everyone who changed the entry in its source, and every variable it reads
 * here. Data from before changes were recorded falls back to the last writer of the source or variable.
 */
function writersOf(
  context: EffectiveViews,
  view: AffectedView,
  item: EvaluatedEntry,
  identity: ApprovalIdentity,
): string[] {
  const entry = item.entry;
  if (entry.status !== 'resolved') return [];
  const snapshot = context.snapshot;
  const since = context.lastHoldingApprovalAt(
    view.workspace.id,
    identity.serverName,
    identity.principalUserId,
  );
  const writers: (string | null)[] = [];
  const entryAuthors = snapshot.entryAuthorsSince(entry.source.origin, entry.name, since);
  writers.push(...(entryAuthors ?? [snapshot.sourceWriter(entry.source.origin)]));
  for (const use of entry.variables) {
    if (use.from === 'default') continue;
    const holder =
      use.from === 'tenant'
        ? 'tenant'
        : use.from === 'workspace'
          ? `workspace:${view.workspace.id}`
          : `user:${view.userId ?? ''}`;
    const variableAuthors = snapshot.entryAuthorsSince(`variable:${holder}`, use.variable, since);
    writers.push(
      ...(variableAuthors ?? snapshot.variableWriters(view.workspace.id, view.userId, use.variable)),
    );
  }
  return writers.filter((writer): writer is string => writer !== null);
}

function previousApproval(
  context: EffectiveViews,
  item: EvaluatedEntry,
): { id: string; changes: ProjectionChange[] } | null {
  if (item.decision.state !== 'stale') return null;
  const approval = context.approvalById(item.decision.matchedApprovalId);
  if (approval === undefined) return null;
  return { id: approval.id, changes: reviewChanges(approval.projection, projectionOf(context, item)) };
}

/**
 * Writes every planned request in a constant number of statements, whatever the fan-out: supersede, insert,
 * read back, audit (one batch). ON CONFLICT DO NOTHING: where a concurrent event opened the same identity first,
 * that request wins and this transaction (which a unique violation would abort) goes on with it.
 */
async function insertPlanned(
  tx: TenantTx,
  args: OpenRequestsArgs,
  planned: readonly PlannedRequest[],
  now: Date,
): Promise<OpenedRequest[]> {
  if (planned.length === 0) return [];
  const superseded = [...new Set(planned.flatMap((plan) => plan.supersedes))];
  if (superseded.length > 0) {
    await tx.approvalRequest.updateMany({
      where: { id: { in: superseded }, status: 'open' },
      data: {
        status: 'superseded',
        openKey: null,
        closedAt: now,
        closedBy: args.authorUserId,
        closeReason: 'superseded',
      },
    });
  }
  await tx.approvalRequest.createMany({
    data: planned.map((plan) => ({
      id: plan.id,
      tenantId: args.tenantId,
      workspaceId: plan.workspaceId,
      identityKey: plan.identity.key,
      openKey: plan.identity.key,
      serverName: plan.identity.serverName,
      sourceTier: plan.identity.source.tier,
      sourceOrigin: plan.identity.source.origin,
      definitionFingerprint: plan.identity.definitionFingerprint,
      securityIdentity: plan.identity.securityIdentity,
      principalUserId: plan.identity.principalUserId,
      repositoryIdentity: plan.identity.repositoryIdentity,
      workspaceGeneration: plan.identity.workspaceGeneration,
      projection: plan.projection,
      previousApprovalId: plan.previous?.id ?? null,
      changes: (plan.previous?.changes ?? []) as object[],
      trigger: args.trigger,
      ...(args.cause === undefined || args.cause === null ? {} : { cause: args.cause }),
      authorUserIds: plan.authors,
    })),
    skipDuplicates: true,
  });
  const rows = await tx.approvalRequest.findMany({
    where: {
      OR: [
        { id: { in: planned.map((plan) => plan.id) } },
        { status: 'open', openKey: { in: planned.map((plan) => plan.identity.key) } },
      ],
    },
  });
  const byId = new Map(rows.map((row) => [row.id, row]));
  const openByKey = new Map(
    rows.filter((row) => row.status === 'open').map((row) => [`${row.workspaceId}/${row.identityKey}`, row]),
  );
  const out: OpenedRequest[] = [];
  const opened: PlannedRequest[] = [];
  for (const plan of planned) {
    const mine = byId.get(plan.id);
    if (mine !== undefined) {
      out.push({ request: mine, outcome: 'opened' });
      opened.push(plan);
      continue;
    }
    const winner = openByKey.get(`${plan.workspaceId}/${plan.identity.key}`);
    if (winner === undefined) throw new Error('an approval request was neither inserted nor found open');
    out.push({ request: winner, outcome: 'already_open' });
  }
  await appendAuditEvents(
    tx,
    opened.map((plan) => ({
      actor: args.actor,
      action: 'approvals.requests.opened',
      target: { type: 'approval_request', id: plan.id },
      outcome: 'success',
      data: {
        workspaceId: plan.workspaceId,
        trigger: args.trigger,
        // Tenant-written text (tool names in paths, origins) as a marker where the audit guard would refuse it.
        ...auditSafeFields(identityAuditData(plan.identity)),
        previousApprovalId: plan.previous?.id ?? null,
        changedPaths: (plan.previous?.changes ?? [])
          .slice(0, 100)
          .map((change) => auditSafeText(change.path.join('.'))),
        superseded: plan.supersedes,
      },
    })),
  );
  return out;
}
