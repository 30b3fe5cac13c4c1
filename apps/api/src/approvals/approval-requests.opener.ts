import { randomUUID } from 'node:crypto';
import {
  diffProjections,
  type ApprovalIdentity,
  type ApprovalRequestTrigger,
  type ProjectionChange,
} from '@gatehouse/activation';
import type { ApprovalRequest, TenantTx, Workspace } from '@gatehouse/db';
import { appendAuditEvent } from '../audit/append-audit-event';
import type { AuditEventInput } from '../audit/audit-event';
import type { DefinitionCipher } from '../definitions/definition-cipher';
import { identityAuditData } from './approval-identity.audit';
import type { DefinitionSnapshot } from '../definitions/definition-snapshot.loader';
import { loadActivationContext, type ActivationContext, type EvaluatedEntry } from './workspace-activation';

/** Which views an event may have changed: a workspace, for the workspace alone and/or some users. */
export interface AffectedView {
  readonly workspace: Workspace;
  readonly userId: string | null;
}

export interface OpenRequestsArgs {
  readonly tenantId: string;
  readonly views: readonly AffectedView[];
  readonly trigger: ApprovalRequestTrigger;
  /** The person whose change this was (four-eyes: they may not approve it); null for a service. */
  readonly authorUserId: string | null;
  readonly actor: AuditEventInput['actor'];
  /** Only this server (asking for review of one server); all entries otherwise. */
  readonly serverName?: string;
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

function projectionOf(evaluated: EvaluatedEntry): object {
  const entry = evaluated.entry;
  if (entry.status !== 'resolved') throw new Error('only resolved entries have an approval identity');
  // The redacted projection (secret values masked): a plain JSON copy, so no class instance reaches Prisma.
  return JSON.parse(JSON.stringify(entry.projection)) as object;
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
 * - A request replacing a stale approval carries the field-level diff from that approval's projection.
 * - A user's own view is re-decided only where they have something of their own (a user or local source, a
 *   user variable, an own overlay); otherwise it resolves exactly like the workspace's, which is decided anyway.
 */
export async function openApprovalRequests(
  tx: TenantTx,
  cipher: DefinitionCipher,
  args: OpenRequestsArgs,
): Promise<OpenedRequest[]> {
  if (args.views.length === 0) return [];
  const context = await loadActivationContext(tx, cipher, {
    tenantId: args.tenantId,
    workspaceIds: args.views.map((view) => view.workspace.id),
    userIds: args.views.flatMap((view) => (view.userId === null ? [] : [view.userId])),
  });
  const workspaceViews = new Set(
    args.views.filter((view) => view.userId === null).map((view) => view.workspace.id),
  );
  const out: OpenedRequest[] = [];
  const seen = new Set<string>();
  const now = new Date();
  for (const view of args.views) {
    const sameAsWorkspace =
      view.userId !== null &&
      workspaceViews.has(view.workspace.id) &&
      !context.snapshot.hasOwnRows(view.workspace.id, view.userId);
    if (sameAsWorkspace) continue;
    const evaluated = context.evaluate(view.workspace, view.userId, now);
    for (const item of evaluated.entries) {
      if (args.serverName !== undefined && item.entry.name !== args.serverName) continue;
      if (item.identity === null || !needsReview(item, args.trigger)) continue;
      const seenKey = `${view.workspace.id}/${item.identity.key}`;
      if (seen.has(seenKey)) continue;
      seen.add(seenKey);
      if (item.openRequest !== null) {
        out.push({ request: item.openRequest, outcome: 'already_open' });
        continue;
      }
      const writers = writersOf(context.snapshot, view, item);
      out.push(await openOne(tx, context, args, view.workspace.id, item, item.identity, writers));
    }
  }
  return out;
}

/** Who shaped what the entry resolves to: the writer of its source and of every variable it reads here. */
function writersOf(snapshot: DefinitionSnapshot, view: AffectedView, item: EvaluatedEntry): string[] {
  const entry = item.entry;
  if (entry.status !== 'resolved') return [];
  const writers = [snapshot.sourceWriter(entry.source.origin)];
  for (const use of entry.variables) {
    if (use.from !== 'default')
      writers.push(...snapshot.variableWriters(view.workspace.id, view.userId, use.variable));
  }
  return writers.filter((writer): writer is string => writer !== null);
}

function previousApproval(
  context: ActivationContext,
  item: EvaluatedEntry,
): { id: string; changes: ProjectionChange[] } | null {
  if (item.decision.state !== 'stale') return null;
  const approval = context.approvalById(item.decision.matchedApprovalId);
  if (approval === undefined) return null;
  return { id: approval.id, changes: diffProjections(approval.projection, projectionOf(item)) };
}

async function openOne(
  tx: TenantTx,
  context: ActivationContext,
  args: OpenRequestsArgs,
  workspaceId: string,
  item: EvaluatedEntry,
  identity: ApprovalIdentity,
  writers: readonly string[],
): Promise<OpenedRequest> {
  // Requests of the same server and principal binding for what it no longer is: close them, keep their authors.
  const outdated = context
    .openRequestsAbout(workspaceId, identity.serverName, identity.principalUserId)
    .filter((request) => request.identityKey !== identity.key);
  const now = new Date();
  if (outdated.length > 0) {
    await tx.approvalRequest.updateMany({
      where: { id: { in: outdated.map((request) => request.id) }, status: 'open' },
      data: { status: 'superseded', openKey: null, closedAt: now, closedBy: args.authorUserId },
    });
  }
  const eventAuthor = args.authorUserId === null ? [] : [args.authorUserId];
  const authors = [
    ...new Set([...outdated.flatMap((request) => request.authorUserIds), ...eventAuthor, ...writers]),
  ];
  const previous = previousApproval(context, item);
  const id = randomUUID();
  // ON CONFLICT DO NOTHING: a concurrent event that opened the same identity first wins, and this transaction
  // (which a unique violation would abort) goes on with that request.
  const created = await tx.approvalRequest.createMany({
    data: [
      {
        id,
        tenantId: args.tenantId,
        workspaceId,
        identityKey: identity.key,
        openKey: identity.key,
        serverName: identity.serverName,
        sourceTier: identity.source.tier,
        sourceOrigin: identity.source.origin,
        definitionFingerprint: identity.definitionFingerprint,
        securityIdentity: identity.securityIdentity,
        principalUserId: identity.principalUserId,
        repositoryIdentity: identity.repositoryIdentity,
        workspaceGeneration: identity.workspaceGeneration,
        projection: projectionOf(item),
        previousApprovalId: previous?.id ?? null,
        changes: (previous?.changes ?? []) as object[],
        trigger: args.trigger,
        authorUserIds: authors,
      },
    ],
    skipDuplicates: true,
  });
  if (created.count === 0) {
    const winner = await tx.approvalRequest.findUniqueOrThrow({
      where: {
        tenantId_workspaceId_openKey: { tenantId: args.tenantId, workspaceId, openKey: identity.key },
      },
    });
    return { request: winner, outcome: 'already_open' };
  }
  const request = await tx.approvalRequest.findUniqueOrThrow({ where: { id } });
  await appendAuditEvent(tx, {
    actor: args.actor,
    action: 'approvals.requests.opened',
    target: { type: 'approval_request', id },
    outcome: 'success',
    data: {
      workspaceId,
      trigger: args.trigger,
      ...identityAuditData(identity),
      previousApprovalId: previous?.id ?? null,
      changedPaths: (previous?.changes ?? []).map((change) => change.path.join('.')),
      superseded: outdated.map((request) => request.id),
    },
  });
  return { request, outcome: 'opened' };
}
