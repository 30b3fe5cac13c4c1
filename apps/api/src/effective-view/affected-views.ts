import type { TenantTx, Workspace } from '@gatehouse/db';

/** One view to re-decide after an event: a workspace alone (userId null) or one user in it. */
export interface AffectedView {
  readonly workspace: Workspace;
  readonly userId: string | null;
}

/**
 * What an event can change, by where it happened:
 * - `tenant`: a managed or plugin source, a tenant variable: every workspace.
 * - `workspace`: a project source, a workspace variable or overlay, a generation bump, trust: one workspace.
 * - `user`: the author's own user source or variable: the author's view in every workspace.
 * - `user_in_workspace`: the author's local source or own overlay: the author's view in one workspace.
 */
export type ChangeScope =
  | { readonly kind: 'tenant' }
  | { readonly kind: 'workspace'; readonly workspaceId: string }
  | { readonly kind: 'user' }
  | { readonly kind: 'user_in_workspace'; readonly workspaceId: string };

/**
 * The views to re-decide after an event: the workspace alone, the author's own view (entries that depend on the
 * author's tiers or variables), and, after a change others share (a tenant or workspace scope), the view of every
 * user who holds a per-user approval or an open per-user request in those workspaces: their approved entry may now
 * be stale, and its new request must reach the queue; their request may be for an identity that is gone. Other members' never-approved per-user entries get their requests from their own
 * events (or a lease refused as pending), so one admin edit does not fan out to every member.
 */
export async function viewsAffectedBy(
  tx: TenantTx,
  scope: ChangeScope,
  authorUserId: string | null,
): Promise<AffectedView[]> {
  const workspaces =
    scope.kind === 'tenant' || scope.kind === 'user'
      ? await tx.workspace.findMany({ orderBy: { id: 'asc' } })
      : await tx.workspace.findMany({ where: { id: scope.workspaceId } });
  const shared = scope.kind === 'tenant' || scope.kind === 'workspace';
  const holders = shared
    ? await perUserApprovalHolders(
        tx,
        workspaces.map((workspace) => workspace.id),
      )
    : [];
  const views: AffectedView[] = [];
  for (const workspace of workspaces) {
    if (shared) views.push({ workspace, userId: null });
    if (authorUserId !== null) views.push({ workspace, userId: authorUserId });
    for (const holder of holders) {
      if (holder.workspaceId === workspace.id && holder.userId !== authorUserId) {
        views.push({ workspace, userId: holder.userId });
      }
    }
  }
  return views;
}

/**
 * Who holds a per-user approval (approved, not revoked) or an open per-user request in these workspaces: a shared
 * change can make the approved entry stale, or the request's identity gone (the entry now resolving like the
 * workspace's), and both are that user's view to re-decide.
 */
async function perUserApprovalHolders(
  tx: TenantTx,
  workspaceIds: readonly string[],
): Promise<{ workspaceId: string; userId: string }[]> {
  if (workspaceIds.length === 0) return [];
  const inWorkspaces = { workspaceId: { in: [...workspaceIds] }, principalUserId: { not: null } };
  const select = { workspaceId: true, principalUserId: true } as const;
  const approvals = await tx.approval.findMany({
    where: { ...inWorkspaces, decision: 'approved', revokedAt: null },
    select,
    distinct: ['workspaceId', 'principalUserId'],
  });
  const requests = await tx.approvalRequest.findMany({
    where: { ...inWorkspaces, status: 'open' },
    select,
    distinct: ['workspaceId', 'principalUserId'],
  });
  const holders = new Map<string, { workspaceId: string; userId: string }>();
  for (const row of [...approvals, ...requests]) {
    if (row.principalUserId === null) continue;
    holders.set(`${row.workspaceId}/${row.principalUserId}`, {
      workspaceId: row.workspaceId,
      userId: row.principalUserId,
    });
  }
  return [...holders.values()];
}
