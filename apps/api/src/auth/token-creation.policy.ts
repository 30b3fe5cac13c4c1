import {
  ROLE_SCOPES,
  scopesBeyondKind,
  type MembershipRole,
  type Scope,
  type TokenKind,
} from '@gatehouse/commands';
import { isPoolOpenToTenant, type WorkerPools } from './pool-config';

// Who may mint which token (docs/architecture/README.md, trust model). Pure: the caller looks up which of the
// requested workspaces exist in the tenant and passes the operator's pool config.

/** The creating principal, as far as the rules need it (a TenantPrincipal fits). */
export interface TokenCreator {
  readonly tenantSlug: string;
  readonly userId: string | null;
  readonly role: MembershipRole | null;
  /** The creator's effective scopes: a user token can never carry more than the credential that minted it. */
  readonly scopes: readonly Scope[];
}

export interface TokenCreationRequest {
  readonly kind: TokenKind;
  readonly scopes: readonly Scope[];
  readonly workspaceIds: readonly string[];
  readonly pool: string | null;
}

export interface TokenCreationContext {
  readonly pools: WorkerPools;
  /** The requested workspace ids that exist in the creator's tenant (another tenant's id is simply absent). */
  readonly existingWorkspaceIds: ReadonlySet<string>;
}

/** What to insert when creation is allowed: scopes de-duplicated, the owning user decided. */
export interface TokenGrant {
  readonly kind: Exclude<TokenKind, 'gateway'>;
  readonly scopes: readonly Scope[];
  readonly workspaceIds: readonly string[];
  readonly pool: string | null;
  /** The user a user token acts as (always its creator); null for agent and worker tokens. */
  readonly userId: string | null;
}

export type TokenCreationRefusal =
  | { readonly ok: false; readonly reason: 'gateway_tokens_are_operator_only' }
  /** Non-admins (approvers, members) may mint only user tokens for themselves; callers without a user none. */
  | { readonly ok: false; readonly reason: 'kind_not_allowed_for_creator'; readonly kind: TokenKind }
  | { readonly ok: false; readonly reason: 'scope_not_allowed_for_kind'; readonly scope: Scope }
  | { readonly ok: false; readonly reason: 'scope_beyond_creator'; readonly scope: Scope }
  | { readonly ok: false; readonly reason: 'workspaces_required' }
  | { readonly ok: false; readonly reason: 'workspaces_not_allowed_for_kind' }
  | { readonly ok: false; readonly reason: 'workspace_not_found'; readonly workspaceId: string }
  | { readonly ok: false; readonly reason: 'pool_required' }
  | { readonly ok: false; readonly reason: 'pool_not_allowed_for_kind' }
  | { readonly ok: false; readonly reason: 'pool_not_open'; readonly pool: string };

export type TokenCreationDecision = { readonly ok: true; readonly grant: TokenGrant } | TokenCreationRefusal;

const ADMIN_ROLES: readonly MembershipRole[] = ['owner', 'admin'];

export function decideTokenCreation(
  creator: TokenCreator,
  request: TokenCreationRequest,
  context: TokenCreationContext,
): TokenCreationDecision {
  const kind = request.kind;
  if (kind === 'gateway') return { ok: false, reason: 'gateway_tokens_are_operator_only' };

  const isAdmin = creator.role !== null && ADMIN_ROLES.includes(creator.role);
  if (kind === 'user' ? creator.userId === null || creator.role === null : !isAdmin) {
    return { ok: false, reason: 'kind_not_allowed_for_creator', kind };
  }

  const scopes = [...new Set(request.scopes)];
  const beyondKind = scopesBeyondKind(kind, scopes)[0];
  if (beyondKind !== undefined) return { ok: false, reason: 'scope_not_allowed_for_kind', scope: beyondKind };

  if (kind === 'user') {
    // Within the creator's role AND the credential in use (a narrowed user token cannot mint a wider one).
    const roleScopes = creator.role === null ? [] : ROLE_SCOPES[creator.role];
    const beyond = scopes.find((scope) => !roleScopes.includes(scope) || !creator.scopes.includes(scope));
    if (beyond !== undefined) return { ok: false, reason: 'scope_beyond_creator', scope: beyond };
  }

  const workspaceIds = [...new Set(request.workspaceIds.map((id) => id.toLowerCase()))];
  if (kind === 'agent' && workspaceIds.length === 0) return { ok: false, reason: 'workspaces_required' };
  if (kind === 'user' && workspaceIds.length > 0)
    return { ok: false, reason: 'workspaces_not_allowed_for_kind' };
  const missing = workspaceIds.find((id) => !context.existingWorkspaceIds.has(id));
  if (missing !== undefined) return { ok: false, reason: 'workspace_not_found', workspaceId: missing };

  if (kind === 'worker') {
    if (request.pool === null) return { ok: false, reason: 'pool_required' };
    if (!isPoolOpenToTenant(context.pools, request.pool, creator.tenantSlug)) {
      return { ok: false, reason: 'pool_not_open', pool: request.pool };
    }
  } else if (request.pool !== null) {
    return { ok: false, reason: 'pool_not_allowed_for_kind' };
  }

  return {
    ok: true,
    grant: {
      kind,
      scopes,
      workspaceIds,
      pool: kind === 'worker' ? request.pool : null,
      userId: kind === 'user' ? creator.userId : null,
    },
  };
}
