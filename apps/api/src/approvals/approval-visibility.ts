import type { Approval, ApprovalRequest, TenantTx } from '@gatehouse/db';
import type { TenantPrincipal } from '../auth/principal';
import { notFound } from '../shared/command-problems';
import { findVisibleWorkspace, visibleWorkspaces } from '../auth/workspace-visibility';

// Requests and approvals belong to a workspace: a workspace-bound credential sees only its workspaces' ones, and
// anything else reads exactly like another tenant's row (row-level security hides those), a 404.

/** The workspace filter of visibleWorkspaces, on the rows' workspace_id column. */
function boundWorkspaces(principal: TenantPrincipal): { workspaceId?: { in: string[] } } {
  const { id } = visibleWorkspaces(principal);
  return id === undefined ? {} : { workspaceId: id };
}

/** The workspace part of a list filter: the asked workspace (404 when not visible), or every visible one. */
export async function workspaceFilter(
  tx: TenantTx,
  principal: TenantPrincipal,
  workspaceId: string | undefined,
): Promise<{ workspaceId?: string | { in: string[] } }> {
  if (workspaceId === undefined) return boundWorkspaces(principal);
  const workspace = await findVisibleWorkspace(tx, principal, workspaceId);
  return { workspaceId: workspace.id };
}

export async function findVisibleRequest(
  tx: TenantTx,
  principal: TenantPrincipal,
  requestId: string,
): Promise<ApprovalRequest> {
  const row = await tx.approvalRequest.findFirst({ where: { id: requestId, ...boundWorkspaces(principal) } });
  if (row === null) throw notFound('approval request');
  return row;
}

export async function findVisibleApproval(
  tx: TenantTx,
  principal: TenantPrincipal,
  approvalId: string,
): Promise<Approval> {
  const row = await tx.approval.findFirst({ where: { id: approvalId, ...boundWorkspaces(principal) } });
  if (row === null) throw notFound('approval');
  return row;
}

/** The decision recorded for each request (approvals.request_id), by request id. */
export async function approvalIdsOf(
  tx: TenantTx,
  requestIds: readonly string[],
): Promise<Map<string, RequestDecision>> {
  if (requestIds.length === 0) return new Map();
  const rows = await tx.approval.findMany({
    where: { requestId: { in: [...requestIds] } },
    select: { id: true, requestId: true, decisionReason: true },
    orderBy: [{ decidedAt: 'asc' }, { id: 'asc' }],
  });
  const out = new Map<string, RequestDecision>();
  for (const row of rows)
    if (row.requestId !== null) out.set(row.requestId, { id: row.id, reason: row.decisionReason });
  return out;
}

/** The decision recorded for a request: its id and the decider's words. */
export interface RequestDecision {
  readonly id: string;
  readonly reason: string | null;
}

/** Whether the tenant's four-eyes rule is on (no HostPolicy row: off). */
export async function fourEyesOf(tx: TenantTx, tenantId: string): Promise<boolean> {
  const policy = await tx.hostPolicy.findUnique({ where: { tenantId }, select: { fourEyes: true } });
  return policy?.fourEyes ?? false;
}
