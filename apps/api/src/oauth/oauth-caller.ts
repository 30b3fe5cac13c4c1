import type { SignInBinding } from '@gatehouse/oauth';
import type { TenantPrincipal } from '../auth/principal';

/** The person signing in: sessions and user tokens only (the declarations' callers), so always a user. */
export function signedInUserOf(principal: TenantPrincipal): string {
  if (principal.userId === null) throw new Error('oauth commands run for a user (declared callers)');
  return principal.userId;
}

/**
 * What a sign-in's state is bound to: the tenant, the user, and the credential that started it (the session,
 * or the user token for an API sign-in): a redirect presented by anything else is refused.
 */
export function signInBindingOf(principal: TenantPrincipal, userId: string): SignInBinding {
  const sessionId =
    principal.sessionId !== null ? `session:${principal.sessionId}` : `token:${principal.tokenId ?? 'none'}`;
  return { tenantId: principal.tenantId, userId, sessionId };
}
