import type { MembershipRole, Scope, TokenKind } from '@gatehouse/commands';
import { forbidden } from '../shared/command-problems';

/** Who is calling, inside one tenant. Every command runs for a TenantPrincipal, in that tenant's RLS context. */
export interface TenantPrincipal {
  readonly type: 'tenant';
  readonly tenantId: string;
  readonly tenantSlug: string;
  /** The person acted for: the session's user, or the user a user token belongs to. Null for agent/worker tokens. */
  readonly userId: string | null;
  readonly role: MembershipRole | null;
  readonly via: 'session' | Exclude<TokenKind, 'gateway'>;
  readonly sessionId: string | null;
  readonly tokenId: string | null;
  /** Effective scopes: the token's scopes intersected with the role's (sessions: the role's). */
  readonly scopes: readonly Scope[];
  /** Workspaces the token is bound to; empty means not workspace-bound. */
  readonly workspaceIds: readonly string[];
  readonly pool: string | null;
}

/** A platform service (gateway token): belongs to no tenant; may only introspect caller tokens and lease. */
export interface PlatformPrincipal {
  readonly type: 'platform';
  readonly via: 'gateway';
  readonly tokenId: string;
  readonly scopes: readonly Scope[];
  /** The pool the token names, if any: re-checked against the operator's WORKER_POOLS on every call. */
  readonly pool?: string;
}

export type Principal = TenantPrincipal | PlatformPrincipal;

/** The caller as a person: user and local sources, user variables and user overlays need one. */
export function callerUserId(principal: TenantPrincipal): string {
  if (principal.userId === null)
    throw forbidden('Only a person has user and local sources, variables and overlays.');
  return principal.userId;
}
