import type { TenantTx } from '@gatehouse/db';
import { callerUserId, type TenantPrincipal } from '../auth/principal';
import { isTenantAdmin } from '../auth/audit-actor';
import { forbidden, ValidationProblemError } from '../shared/command-problems';
import { findVisibleWorkspace } from '../auth/workspace-visibility';
import { assertMayWriteWorkspaceSetting } from './definition-access';

export interface VariableHolder {
  readonly scope: 'tenant' | 'workspace' | 'user';
  readonly holder: string;
  readonly workspaceId: string | null;
  readonly userId: string | null;
}

/**
 * Whose variables a call is about. User variables are always the caller's own: there is no way to name another
 * user's, so no role (not even owner) reads or writes them.
 */
export async function variableHolderOf(
  tx: TenantTx,
  principal: TenantPrincipal,
  input: { scope: VariableHolder['scope']; workspaceId?: string | undefined },
): Promise<VariableHolder> {
  if ((input.scope === 'workspace') !== (input.workspaceId !== undefined)) {
    throw new ValidationProblemError([
      {
        path: 'workspaceId',
        message:
          input.scope === 'workspace'
            ? 'workspace variables need a workspaceId'
            : `${input.scope} variables take no workspaceId`,
      },
    ]);
  }
  switch (input.scope) {
    case 'tenant':
      return { scope: 'tenant', holder: 'tenant', workspaceId: null, userId: null };
    case 'workspace': {
      const workspace = await findVisibleWorkspace(tx, principal, input.workspaceId as string);
      return {
        scope: 'workspace',
        holder: `workspace:${workspace.id}`,
        workspaceId: workspace.id,
        userId: null,
      };
    }
    case 'user': {
      const userId = callerUserId(principal);
      return { scope: 'user', holder: `user:${userId}`, workspaceId: null, userId };
    }
    default: {
      const unreachable: never = input.scope;
      throw new Error(`unknown variable scope ${String(unreachable)}`);
    }
  }
}

/** Tenant variables: owners/admins; workspace variables: admins and maintainers; user variables: the user. */
export async function assertMayWriteVariables(
  tx: TenantTx,
  principal: TenantPrincipal,
  holder: VariableHolder,
): Promise<void> {
  switch (holder.scope) {
    case 'tenant':
      if (!isTenantAdmin(principal) || principal.workspaceIds.length > 0)
        throw forbidden('Only owners and admins change tenant variables.');
      return;
    case 'workspace':
      return assertMayWriteWorkspaceSetting(tx, principal, holder.workspaceId as string, 'variables');
    case 'user':
      return;
    default: {
      const unreachable: never = holder.scope;
      throw new Error(`unknown variable scope ${String(unreachable)}`);
    }
  }
}
