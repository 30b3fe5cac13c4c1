import type { Decider } from '@gatehouse/activation';
import type { TenantPrincipal } from '../auth/principal';

/**
 * The caller as @gatehouse/activation's `canDecide` sees them. A session or user token is a person with a role;
 * agent and worker tokens are services whatever scopes they claim. A person's credential without a user or a
 * role cannot be (resolvePrincipal sets both): that would be a bug, so it throws rather than guess.
 */
export function deciderOf(principal: TenantPrincipal): Decider {
  const scopes = [...principal.scopes];
  switch (principal.via) {
    case 'session':
    case 'user': {
      if (principal.userId === null || principal.role === null)
        throw new Error('a session or user token principal without a user or role');
      return {
        kind: principal.via === 'session' ? 'session' : 'user_token',
        userId: principal.userId,
        role: principal.role,
        scopes,
      };
    }
    case 'agent':
      return { kind: 'agent_token', scopes };
    case 'worker':
      return { kind: 'worker_token', scopes };
    default: {
      const unreachable: never = principal.via;
      throw new Error(`unknown principal kind ${String(unreachable)}`);
    }
  }
}
