import type { Database } from '../database';
import type { MembershipRole, TokenKind } from '../generated/enums';

// Typed wrappers over the SECURITY DEFINER functions of migrations 20261130010100_row_level_security and
// 20261130020000_auth_lookup_context: the only reads that happen before a tenant is known. Each is one statement
// through Database.lookup (no transaction, no tenant set): authentication costs one round trip.

/**
 * A token's non-secret columns, whatever its state (callers decide and audit revoked and expired), with what is
 * needed to build its principal without a second query.
 */
export interface TokenLookup {
  id: string;
  tenantId: string | null;
  userId: string | null;
  createdById: string | null;
  kind: TokenKind;
  name: string;
  scopes: string[];
  workspaceIds: string[];
  pool: string | null;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  /** The slug of the token's tenant; null for a tenantless (gateway) token. */
  tenantSlug: string | null;
  /** The token user's CURRENT role in the token's tenant; null without a user or once the membership is gone. */
  role: MembershipRole | null;
  /** When the token's user was disabled; null when enabled or when the token has no user. */
  userDisabledAt: Date | null;
}

/** A live (not revoked, not expired) session, with what is needed to refuse it without a second query. */
export interface SessionLookup {
  id: string;
  tenantId: string;
  userId: string;
  tenantSlug: string;
  csrfHash: Uint8Array;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  userDisabledAt: Date | null;
  /** The user's role in the session's tenant; null once the membership is gone. */
  role: MembershipRole | null;
}

export interface LoginLookup {
  userId: string;
  passwordHash: string;
  disabledAt: Date | null;
  memberships: { tenantId: string; tenantSlug: string; role: MembershipRole }[];
}

interface TokenRow {
  id: string;
  tenant_id: string | null;
  user_id: string | null;
  created_by_id: string | null;
  kind: TokenKind;
  name: string;
  scopes: string[];
  workspace_ids: string[];
  pool: string | null;
  prefix: string;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  tenant_slug: string | null;
  role: MembershipRole | null;
  user_disabled_at: Date | null;
}

interface SessionRow {
  id: string;
  tenant_id: string;
  user_id: string;
  csrf_hash: Uint8Array;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  user_disabled_at: Date | null;
  role: MembershipRole | null;
  tenant_slug: string;
}

interface LoginRow {
  user_id: string;
  password_hash: string;
  disabled_at: Date | null;
  tenant_id: string | null;
  tenant_slug: string | null;
  role: MembershipRole | null;
}

/** A token by the sha256 of its secret; also moves last_used_at (at most once a minute). */
export async function findTokenBySecretHash(
  db: Database,
  secretHash: Uint8Array,
): Promise<TokenLookup | null> {
  const rows = await db.lookup((query) => query<TokenRow>`SELECT * FROM gh_auth_token(${secretHash})`);
  const r = rows[0];
  if (!r) return null;
  return {
    id: r.id,
    tenantId: r.tenant_id,
    userId: r.user_id,
    createdById: r.created_by_id,
    kind: r.kind,
    name: r.name,
    scopes: r.scopes,
    workspaceIds: r.workspace_ids,
    pool: r.pool,
    prefix: r.prefix,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
    expiresAt: r.expires_at,
    revokedAt: r.revoked_at,
    tenantSlug: r.tenant_slug,
    role: r.role,
    userDisabledAt: r.user_disabled_at,
  };
}

/** A live session by the sha256 of its cookie; also moves last_seen_at (at most once a minute). */
export async function findLiveSessionBySecretHash(
  db: Database,
  secretHash: Uint8Array,
): Promise<SessionLookup | null> {
  const rows = await db.lookup((query) => query<SessionRow>`SELECT * FROM gh_auth_session(${secretHash})`);
  const r = rows[0];
  if (!r) return null;
  return {
    id: r.id,
    tenantId: r.tenant_id,
    userId: r.user_id,
    tenantSlug: r.tenant_slug,
    csrfHash: r.csrf_hash,
    createdAt: r.created_at,
    lastSeenAt: r.last_seen_at,
    expiresAt: r.expires_at,
    userDisabledAt: r.user_disabled_at,
    role: r.role,
  };
}

/** A login by exact email (normalize before storing and looking up); null for an unknown email. */
export async function findLoginByEmail(db: Database, email: string): Promise<LoginLookup | null> {
  const rows = await db.lookup((query) => query<LoginRow>`SELECT * FROM gh_auth_login(${email})`);
  const first = rows[0];
  if (!first) return null;
  const memberships: LoginLookup['memberships'] = [];
  for (const r of rows) {
    if (r.tenant_id !== null && r.tenant_slug !== null && r.role !== null) {
      memberships.push({ tenantId: r.tenant_id, tenantSlug: r.tenant_slug, role: r.role });
    }
  }
  return {
    userId: first.user_id,
    passwordHash: first.password_hash,
    disabledAt: first.disabled_at,
    memberships,
  };
}

/** Every tenant id (jobs that walk all tenants, one withTenant each). */
export async function listTenantIds(db: Database): Promise<string[]> {
  const rows = await db.lookup((query) => query<{ id: string }>`SELECT id FROM gh_tenant_ids() AS id`);
  return rows.map((r) => r.id);
}

export async function findTenantIdBySlug(db: Database, slug: string): Promise<string | null> {
  const rows = await db.lookup(
    (query) => query<{ id: string | null }>`SELECT gh_tenant_id_by_slug(${slug}) AS id`,
  );
  return rows[0]?.id ?? null;
}
