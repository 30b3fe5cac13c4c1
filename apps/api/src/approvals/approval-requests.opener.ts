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
import { evaluateWorkspaceView, type EvaluatedEntry } from './workspace-activation';

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
      return decision.reasons.includes('no_admission_decision') || decision.reasons.includes('approval_expired');
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
 * - One open request per identity per workspace: an existing one gains the author and is returned as is.
 * - An open request of the same server and principal binding for an identity that is no longer current is
 *   superseded; its authors carry over to the new request, so four-eyes still covers every change since the
 *   last decision.
 * - A request replacing a stale approval carries the field-level diff from that approval's projection.
 */
export async function openApprovalRequests(
  tx: TenantTx,
  cipher: DefinitionCipher,
  args: OpenRequestsArgs,
): Promise<OpenedRequest[]> {
  const out: OpenedRequest[] = [];
  const seen = new Set<string>();
  for (const view of args.views) {
    const evaluated = await evaluateWorkspaceView(tx, cipher, {
      tenantId: args.tenantId,
      workspace: view.workspace,
      userId: view.userId,
    });
    for (const item of evaluated.entries) {
      if (args.serverName !== undefined && item.entry.name !== args.serverName) continue;
      if (item.identity === null || !needsReview(item, args.trigger)) continue;
      const seenKey = `${view.workspace.id}/${item.identity.key}`;
      if (seen.has(seenKey)) continue;
      seen.add(seenKey);
      out.push(await openOne(tx, args, view.workspace.id, item, item.identity));
    }
  }
  return out;
}

async function previousApproval(
  tx: TenantTx,
  item: EvaluatedEntry,
): Promise<{ id: string; changes: ProjectionChange[] } | null> {
  if (item.decision.state !== 'stale') return null;
  const approval = await tx.approval.findUnique({ where: { id: item.decision.matchedApprovalId } });
  if (approval === null) return null;
  return { id: approval.id, changes: diffProjections(approval.projection, projectionOf(item)) };
}

async function openOne(
  tx: TenantTx,
  args: OpenRequestsArgs,
  workspaceId: string,
  item: EvaluatedEntry,
  identity: ApprovalIdentity,
): Promise<OpenedRequest> {
  const author = args.authorUserId === null ? [] : [args.authorUserId];
  const existing = await tx.approvalRequest.findUnique({
    where: { tenantId_workspaceId_openKey: { tenantId: args.tenantId, workspaceId, openKey: identity.key } },
  });
  if (existing !== null) return { request: await addAuthors(tx, existing, author), outcome: 'already_open' };

  // Requests of the same server and principal binding for what it no longer is: close them, keep their authors.
  const outdated = await tx.approvalRequest.findMany({
    where: {
      workspaceId,
      status: 'open',
      serverName: identity.serverName,
      principalUserId: identity.principalUserId,
      NOT: { identityKey: identity.key },
    },
  });
  const now = new Date();
  if (outdated.length > 0) {
    await tx.approvalRequest.updateMany({
      where: { id: { in: outdated.map((request) => request.id) }, status: 'open' },
      data: { status: 'superseded', openKey: null, closedAt: now, closedBy: args.authorUserId },
    });
  }
  const authors = [...new Set([...outdated.flatMap((request) => request.authorUserIds), ...author])];
  const previous = await previousApproval(tx, item);
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
      where: { tenantId_workspaceId_openKey: { tenantId: args.tenantId, workspaceId, openKey: identity.key } },
    });
    return { request: await addAuthors(tx, winner, authors), outcome: 'already_open' };
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

async function addAuthors(tx: TenantTx, request: ApprovalRequest, authors: readonly string[]): Promise<ApprovalRequest> {
  const missing = authors.filter((author) => !request.authorUserIds.includes(author));
  if (missing.length === 0) return request;
  return tx.approvalRequest.update({
    where: { id: request.id },
    data: { authorUserIds: { push: missing } },
  });
}
