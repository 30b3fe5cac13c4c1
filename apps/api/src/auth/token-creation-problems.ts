import { ProblemError } from '@gatehouse/platform';
import { ValidationProblemError } from '../shared/command-problems';
import type { TokenCreationRefusal } from './token-creation.policy';

/**
 * The client-facing problem for each refusal of `decideTokenCreation`. Details name the offending scope or
 * pool (the caller chose them) but never anything of another tenant: a workspace id the tenant does not have
 * is a 404 exactly like one that does not exist at all, and a pool not open to this tenant reads the same as
 * a pool that does not exist.
 */
export function tokenCreationProblem(refusal: TokenCreationRefusal): ProblemError {
  switch (refusal.reason) {
    case 'gateway_tokens_are_operator_only':
      return new ProblemError({
        status: 403,
        code: 'gateway_tokens_are_operator_only',
        title: 'Gateway tokens are operator only',
        detail: "Gateway tokens are created only with the operator's CLI (gatehouse admin create-token).",
      });
    case 'kind_not_allowed_for_creator':
      return new ProblemError({
        status: 403,
        code: 'forbidden_scope',
        title: 'Forbidden',
        detail: `Only tenant owners and admins create ${refusal.kind} tokens; others create user tokens for themselves.`,
      });
    case 'scope_not_allowed_for_kind':
      return new ProblemError({
        status: 400,
        code: 'scope_not_allowed_for_kind',
        title: 'Scope not allowed for this token kind',
        detail: `A token of this kind may never hold the scope ${refusal.scope}.`,
      });
    case 'scope_beyond_creator':
      return new ProblemError({
        status: 403,
        code: 'forbidden_scope',
        title: 'Forbidden',
        detail: `You cannot grant the scope ${refusal.scope}: you do not hold it.`,
      });
    case 'workspaces_required':
      return validation('workspaceIds', 'Agent tokens must be bound to at least one workspace.');
    case 'workspaces_not_allowed_for_kind':
      return validation('workspaceIds', 'Only agent and worker tokens are bound to workspaces.');
    case 'pool_required':
      return validation('pool', 'Worker tokens must name a pool.');
    case 'pool_not_allowed_for_kind':
      return validation('pool', 'Only worker tokens name a pool.');
    case 'workspace_not_found':
      return new ProblemError({
        status: 404,
        code: 'not_found',
        title: 'Not found',
        detail: 'No such workspace.',
      });
    case 'pool_not_open':
      return new ProblemError({
        status: 400,
        code: 'pool_not_open',
        title: 'Pool not open to this tenant',
        detail: `The operator has not opened the pool ${refusal.pool} to this tenant.`,
      });
  }
}

function validation(path: string, message: string): ProblemError {
  return new ValidationProblemError([{ path, message }], message);
}
