import type { TenantTx } from '@gatehouse/db';
import { callerUserId, type TenantPrincipal } from '../auth/principal';
import { isTenantAdmin } from '../auth/audit-actor';
import { forbidden, notFound, ValidationProblemError } from '../shared/command-problems';
import { findVisibleWorkspace } from '../auth/workspace-visibility';

// Who may read and write what (docs/architecture/README.md, trust model): managed and plugin sources by
// owners/admins; project sources by admins and the workspace's maintainers; user and local sources by their
// user alone — never an admin, never another user. Someone else's user/local source reads exactly like a
// missing one (404).

export type DefinitionTierName = 'managed' | 'local' | 'project' | 'user' | 'plugin';

export interface SourceTarget {
  readonly tier: DefinitionTierName;
  readonly origin: string;
  readonly workspaceId: string | null;
  readonly ownerUserId: string | null;
}

export interface SourceTargetInput {
  readonly tier: DefinitionTierName;
  readonly name?: string | undefined;
  readonly workspaceId?: string | undefined;
}

function invalid(path: string, message: string): ValidationProblemError {
  return new ValidationProblemError([{ path, message }]);
}

/** Names the source a write targets. User and local sources are always the caller's own. */
export async function sourceTargetOf(
  tx: TenantTx,
  principal: TenantPrincipal,
  input: SourceTargetInput,
): Promise<SourceTarget> {
  const { tier } = input;
  const tenantWide = tier === 'managed' || tier === 'plugin';
  if (tenantWide !== (input.name !== undefined)) {
    throw invalid('name', tenantWide ? `a ${tier} source needs a name` : `a ${tier} source takes no name`);
  }
  const inWorkspace = tier === 'project' || tier === 'local';
  if (inWorkspace !== (input.workspaceId !== undefined)) {
    throw invalid(
      'workspaceId',
      inWorkspace ? `a ${tier} source needs a workspaceId` : `a ${tier} source takes no workspaceId`,
    );
  }
  switch (tier) {
    case 'managed':
    case 'plugin':
      return { tier, origin: `${tier}:${input.name as string}`, workspaceId: null, ownerUserId: null };
    case 'project': {
      const workspace = await findVisibleWorkspace(tx, principal, input.workspaceId as string);
      return { tier, origin: `project:${workspace.id}`, workspaceId: workspace.id, ownerUserId: null };
    }
    case 'local': {
      const workspace = await findVisibleWorkspace(tx, principal, input.workspaceId as string);
      const userId = callerUserId(principal);
      return {
        tier,
        origin: `local:${workspace.id}:${userId}`,
        workspaceId: workspace.id,
        ownerUserId: userId,
      };
    }
    case 'user': {
      const userId = callerUserId(principal);
      return { tier, origin: `user:${userId}`, workspaceId: null, ownerUserId: userId };
    }
    default: {
      const unreachable: never = tier;
      throw new Error(`unknown tier ${String(unreachable)}`);
    }
  }
}

export async function isWorkspaceMaintainer(
  tx: TenantTx,
  principal: TenantPrincipal,
  workspaceId: string,
): Promise<boolean> {
  if (principal.userId === null) return false;
  const row = await tx.workspaceMember.findUnique({
    where: { workspaceId_userId: { workspaceId, userId: principal.userId } },
    select: { userId: true },
  });
  return row !== null;
}

/** Refuses (403) a write the caller's role or maintainership does not allow; user/local are theirs by construction. */
export async function assertMayWriteSource(
  tx: TenantTx,
  principal: TenantPrincipal,
  target: SourceTarget,
): Promise<void> {
  switch (target.tier) {
    case 'managed':
    case 'plugin':
      if (!isTenantAdmin(principal) || principal.workspaceIds.length > 0)
        throw forbidden(`Only owners and admins write ${target.tier} sources.`);
      return;
    case 'project':
      if (isTenantAdmin(principal)) return;
      if (await isWorkspaceMaintainer(tx, principal, target.workspaceId as string)) return;
      throw forbidden("Only admins and the workspace's maintainers write its project source.");
    case 'local':
    case 'user':
      if (target.ownerUserId === null || target.ownerUserId !== principal.userId)
        throw notFound('definition source');
      return;
    default: {
      const unreachable: never = target.tier;
      throw new Error(`unknown tier ${String(unreachable)}`);
    }
  }
}

/** Whether the caller may see a stored source at all (else it is a 404, like another tenant's). */
export function mayReadSource(
  principal: TenantPrincipal,
  row: { tier: DefinitionTierName; workspaceId: string | null; ownerUserId: string | null },
): boolean {
  if ((row.tier === 'user' || row.tier === 'local') && row.ownerUserId !== principal.userId) return false;
  if (row.workspaceId !== null && principal.workspaceIds.length > 0)
    return principal.workspaceIds.includes(row.workspaceId.toLowerCase());
  return true;
}

/** Variables and overlays of a workspace: admins and the workspace's maintainers. */
export async function assertMayWriteWorkspaceSetting(
  tx: TenantTx,
  principal: TenantPrincipal,
  workspaceId: string,
  what: string,
): Promise<void> {
  if (isTenantAdmin(principal)) return;
  if (await isWorkspaceMaintainer(tx, principal, workspaceId)) return;
  throw forbidden(`Only admins and the workspace's maintainers change its ${what}.`);
}
