import type { ApprovalRequestTrigger } from '@gatehouse/activation';
import type { TenantTx, UnitOfWorkOptions } from '@gatehouse/db';
import type { TenantPrincipal } from '../auth/principal';
import { auditActorOf } from '../auth/audit-actor';
import type { DefinitionCipher } from '../effective-view/definition-cipher';
import { viewsAffectedBy, type ChangeScope } from '../effective-view/affected-views';
import {
  openApprovalRequests,
  type ApprovalRequestCause,
  type OpenedRequest,
} from './approval-requests-opener';
import { recordEntryAuthors, variableOrigin } from './entry-authorship';

/**
 * The bound of a transaction that opens approval requests after its change. Its cost grows with what the change
 * reaches (a tenant-wide source or variable: every workspace's view, each entry re-decided, each request written in
 * the same transaction, by design), so the default 10 s, meant for a unit of work of fixed size, is too tight for a
 * large tenant or a loaded database: measured 3 s alone for a managed source in a tenant of ~150 workspaces and ~40
 * managed entries, past 10 s (500) with four suites on two cores. Still bounded, so a stuck transaction ends.
 */
export const FAN_OUT_UNIT_OF_WORK: UnitOfWorkOptions = { timeoutMs: 60_000 };

/**
 * What a mutation calls, in its own transaction and after its change, so the approval requests exist exactly when
 * the change does (and vanish with it if the transaction rolls back). The caller is the author: with four-eyes on
 * they may not approve what they changed.
 */
export async function openRequestsAfterChange(
  tx: TenantTx,
  cipher: DefinitionCipher,
  principal: TenantPrincipal,
  scope: ChangeScope,
  trigger: ApprovalRequestTrigger,
  cause: ApprovalRequestCause | null = null,
): Promise<OpenedRequest[]> {
  const views = await viewsAffectedBy(tx, scope, principal.userId);
  return openApprovalRequests(tx, cipher, {
    tenantId: principal.tenantId,
    views,
    trigger,
    authorUserId: principal.userId,
    actor: auditActorOf(principal),
    cause,
  });
}

/**
 * After a variable was set or unset: records the caller as an author of it (four-eyes), then re-decides the views
 * it takes part in.
 */
export async function openRequestsAfterVariableChange(
  tx: TenantTx,
  cipher: DefinitionCipher,
  principal: TenantPrincipal,
  variable: {
    holder: string;
    scope: 'tenant' | 'workspace' | 'user';
    workspaceId: string | null;
    name: string;
  },
  change: 'variable_set' | 'variable_unset',
): Promise<OpenedRequest[]> {
  await recordEntryAuthors(tx, {
    tenantId: principal.tenantId,
    origin: variableOrigin(variable.holder),
    entryNames: [variable.name],
    userId: principal.userId,
  });
  return openRequestsAfterChange(tx, cipher, principal, changeScopeOfVariable(variable), 'variable_changed', {
    kind: change,
    subject: variable.name,
    scope: variable.scope,
  });
}

/** Where a definition source of this tier takes part: who may see a change to it. */
export function changeScopeOfSource(source: { tier: string; workspaceId: string | null }): ChangeScope {
  switch (source.tier) {
    case 'managed':
    case 'plugin':
      return { kind: 'tenant' };
    case 'project':
      return { kind: 'workspace', workspaceId: workspaceIdOf(source) };
    case 'user':
      return { kind: 'user' };
    case 'local':
      return { kind: 'user_in_workspace', workspaceId: workspaceIdOf(source) };
    default:
      throw new Error(`unknown tier ${source.tier}`);
  }
}

function workspaceIdOf(source: { tier: string; workspaceId: string | null }): string {
  if (source.workspaceId === null) throw new Error(`a ${source.tier} source without a workspace`);
  return source.workspaceId;
}

/** Where a variable takes part: a tenant variable everywhere, a workspace one there, a user's own in their views. */
export function changeScopeOfVariable(holder: { scope: string; workspaceId: string | null }): ChangeScope {
  switch (holder.scope) {
    case 'tenant':
      return { kind: 'tenant' };
    case 'workspace':
      if (holder.workspaceId === null) throw new Error('a workspace variable without a workspace');
      return { kind: 'workspace', workspaceId: holder.workspaceId };
    case 'user':
      return { kind: 'user' };
    default:
      throw new Error(`unknown variable scope ${holder.scope}`);
  }
}

/** A workspace overlay changes the workspace's views; a user's own overlay only that user's view there. */
export function changeScopeOfOverlay(workspaceId: string, userId: string | null): ChangeScope {
  return userId === null ? { kind: 'workspace', workspaceId } : { kind: 'user_in_workspace', workspaceId };
}
