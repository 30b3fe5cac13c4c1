import type { TenantTx, Workspace } from '@gatehouse/db';
import type { TenantPrincipal } from './principal';
import { forbidden, notFound } from '../shared/command-problems';

/**
 * A workspace-bound credential (agent and worker tokens may be) sees only its workspaces: everything else reads
 * exactly like another tenant's workspace, a 404.
 */
export function visibleWorkspaces(principal: TenantPrincipal): { id?: { in: string[] } } {
  return principal.workspaceIds.length > 0 ? { id: { in: [...principal.workspaceIds] } } : {};
}

export async function findVisibleWorkspace(
  tx: TenantTx,
  principal: TenantPrincipal,
  workspaceId: string,
): Promise<Workspace> {
  const bound = principal.workspaceIds;
  if (bound.length > 0 && !bound.includes(workspaceId.toLowerCase())) throw notFound('workspace');
  const workspace = await tx.workspace.findUnique({ where: { id: workspaceId } });
  if (workspace === null) throw notFound('workspace');
  return workspace;
}

export function assertNotWorkspaceBound(principal: TenantPrincipal): void {
  if (principal.workspaceIds.length > 0) {
    throw forbidden('A credential bound to workspaces cannot create workspaces.');
  }
}
