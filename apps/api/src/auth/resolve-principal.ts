import type { IncomingHttpHeaders } from 'node:http';
import { KIND_SCOPES, ROLE_SCOPES, isScope, type Scope } from '@gatehouse/commands';
import {
  findLiveSessionBySecretHash,
  findTokenBySecretHash,
  type Database,
  type TokenLookup,
} from '@gatehouse/db';
import { ProblemError } from '@gatehouse/platform';
import { unauthenticated } from '../shared/command-problems';
import { bearerTokenOf } from './api-token-format';
import { checkCsrf, csrfFailed } from './csrf.guard';
import { sha256 } from './opaque-secret';
import type { PlatformPrincipal, Principal, TenantPrincipal } from './principal';
import { sessionIdFromCookieHeader } from './session-cookie';
import { absoluteDeadline, extendedDeadline, type SessionPolicy } from './session-policy';
import type { TokenLookupCache } from './token-lookup-cache';

// Who is calling. A request authenticates with EITHER `Authorization: Bearer <token>` OR the session cookie:
// when an Authorization header is present the cookie is ignored, so a bad token never falls back to a
// browser's session. Every refusal (unknown, revoked, expired, malformed, user disabled, membership gone)
// is the same `null`, which callers turn into one 401 `unauthenticated`. Each credential costs ONE statement
// (gh_auth_token / gh_auth_session through Database.lookup, no transaction): the definer function returns the
// tenant's slug and the user's current role and disabled_at with the credential itself. A bearer token's lookup
// is served from a short-lived process-local cache when one is given (token-lookup-cache.ts says how fresh).

export interface AuthDeps {
  readonly db: Database;
  readonly sessionPolicy: SessionPolicy;
  readonly now?: () => Date;
  /** Bearer token lookups, cached briefly; absent: every request asks the database. */
  readonly tokenCache?: TokenLookupCache;
}

/** The slice of a Fastify request authentication reads. */
export interface AuthRequest {
  readonly method: string;
  readonly headers: IncomingHttpHeaders;
}

export interface SessionView {
  readonly principal: TenantPrincipal;
  readonly expiresAt: Date;
}

interface Resolution {
  readonly principal: Principal;
  readonly session: { readonly csrfHash: Uint8Array; readonly expiresAt: Date } | null;
}

// One resolution per request object, however many times a hook, a guard and a handler ask.
const resolutions = new WeakMap<object, Promise<Resolution | null>>();

/**
 * The caller, or null when the request carries no valid credential. Throws ProblemError `csrf_failed` (403)
 * for a cookie-authenticated write that fails the CSRF check (csrf.guard.ts), so no write route can forget it.
 */
export async function resolvePrincipal(request: AuthRequest, deps: AuthDeps): Promise<Principal | null> {
  const resolution = await resolveOnce(request, deps);
  if (resolution === null) return null;
  if (resolution.session !== null && !checkCsrf(request, resolution.session.csrfHash).ok) throw csrfFailed();
  return resolution.principal;
}

/** The caller as a tenant principal; 401 without a valid credential, 403 for a platform (gateway) token. */
export async function requireTenantPrincipal(request: AuthRequest, deps: AuthDeps): Promise<TenantPrincipal> {
  const principal = await resolvePrincipal(request, deps);
  if (principal === null) throw unauthenticated();
  if (principal.type !== 'tenant') {
    throw new ProblemError({
      status: 403,
      code: 'forbidden_scope',
      title: 'Forbidden',
      detail: 'Gateway tokens act in no tenant; tenant commands need a user, agent or worker credential.',
    });
  }
  return principal;
}

/** The cookie session behind this request (CSRF-checked like any other), or null when it has none. */
export async function resolveSession(request: AuthRequest, deps: AuthDeps): Promise<SessionView | null> {
  const principal = await resolvePrincipal(request, deps);
  const resolution = await resolveOnce(request, deps);
  if (principal === null || principal.type !== 'tenant' || resolution?.session == null) return null;
  return { principal, expiresAt: resolution.session.expiresAt };
}

function resolveOnce(request: AuthRequest, deps: AuthDeps): Promise<Resolution | null> {
  let pending = resolutions.get(request);
  if (pending === undefined) {
    pending = resolve(request, deps);
    resolutions.set(request, pending);
  }
  return pending;
}

async function resolve(request: AuthRequest, deps: AuthDeps): Promise<Resolution | null> {
  const authorization = request.headers.authorization;
  if (authorization !== undefined) {
    const token = bearerTokenOf(authorization);
    const principal = token ? await principalOfToken(token, deps) : null;
    return principal === null ? null : { principal, session: null };
  }
  const sessionId = sessionIdFromCookieHeader(request.headers.cookie);
  return sessionId === undefined ? null : resolveSessionCookie(sessionId, deps);
}

async function principalOfToken(secret: string, deps: AuthDeps): Promise<Principal | null> {
  const secretHash = sha256(secret);
  const load = () => findTokenBySecretHash(deps.db, secretHash);
  const token = deps.tokenCache ? await deps.tokenCache.lookup(secretHash, load) : await load();
  return principalOfTokenLookup(token, deps.now?.() ?? new Date());
}

/**
 * The principal a looked-up token acts as now, or null for every token that may not act (unknown, revoked,
 * expired, a disabled user, a removed member). Shared by bearer authentication and tokens.introspect.
 */
export function principalOfTokenLookup(token: TokenLookup | null, now: Date): Principal | null {
  if (token === null || token.revokedAt !== null || (token.expiresAt !== null && token.expiresAt <= now))
    return null;
  if (token.kind === 'gateway') return token.tenantId === null ? platformPrincipal(token) : null;
  if (token.tenantId === null || token.tenantSlug === null) return null;

  const base = {
    type: 'tenant' as const,
    tenantId: token.tenantId,
    tenantSlug: token.tenantSlug,
    via: token.kind,
    sessionId: null,
    tokenId: token.id,
    workspaceIds: token.workspaceIds,
    pool: token.pool,
  };
  if (token.kind !== 'user') {
    return { ...base, userId: null, role: null, scopes: intersect(token.scopes, KIND_SCOPES[token.kind]) };
  }
  // The user's CURRENT role (read with the token, in the same statement): a demoted user's tokens lose power at
  // once, a removed member's (role null) and a disabled user's stop working.
  if (token.userId === null || token.role === null || token.userDisabledAt !== null) return null;
  const scopes = intersect(intersect(token.scopes, KIND_SCOPES.user), ROLE_SCOPES[token.role]);
  return { ...base, userId: token.userId, role: token.role, scopes };
}

function platformPrincipal(token: TokenLookup): PlatformPrincipal {
  return {
    type: 'platform',
    via: 'gateway',
    tokenId: token.id,
    scopes: intersect(token.scopes, KIND_SCOPES.gateway),
    ...(token.pool === null ? {} : { pool: token.pool }),
  };
}

async function resolveSessionCookie(sessionId: string, deps: AuthDeps): Promise<Resolution | null> {
  const session = await findLiveSessionBySecretHash(deps.db, sha256(sessionId));
  if (session === null || session.userDisabledAt !== null || session.role === null) return null;
  const now = deps.now?.() ?? new Date();
  // gh_auth_session already refused rows past expires_at; this catches a policy shortened since sign-in.
  if (absoluteDeadline(session.createdAt, deps.sessionPolicy) <= now) return null;

  let expiresAt = session.expiresAt;
  const next = extendedDeadline(session.createdAt, session.expiresAt, now, deps.sessionPolicy);
  if (next !== null) {
    await deps.db.withTenant(session.tenantId, (tx) =>
      tx.session.updateMany({ where: { id: session.id, revokedAt: null }, data: { expiresAt: next } }),
    );
    expiresAt = next;
  }

  const principal: TenantPrincipal = {
    type: 'tenant',
    tenantId: session.tenantId,
    tenantSlug: session.tenantSlug,
    userId: session.userId,
    role: session.role,
    via: 'session',
    sessionId: session.id,
    tokenId: null,
    scopes: ROLE_SCOPES[session.role],
    workspaceIds: [],
    pool: null,
  };
  return { principal, session: { csrfHash: session.csrfHash, expiresAt } };
}

/** Scopes in both lists, in the order of `held`; unknown strings (a scope since retired) are dropped. */
function intersect(held: readonly string[], allowed: readonly Scope[]): Scope[] {
  return held.filter((scope): scope is Scope => isScope(scope) && allowed.includes(scope));
}
