import { isScope } from '@gatehouse/commands';
import type { ApiToken, Membership, Tenant, User, Workspace, WorkspaceMember } from '@gatehouse/db';

// Rows → the API shapes declared in libs/commands. The runner parses every result through the command's
// output schema as well, so a field added here by mistake is still stripped; these only convert types.

type Person = Pick<User, 'email' | 'displayName'>;

export function toTenantView(row: Tenant) {
  return { id: row.id, slug: row.slug, name: row.name, createdAt: row.createdAt.toISOString() };
}

export function toMemberView(row: Membership & { user: Person }) {
  return {
    userId: row.userId,
    email: row.user.email,
    displayName: row.user.displayName,
    role: row.role,
    joinedAt: row.createdAt.toISOString(),
  };
}

export function toWorkspaceView(row: Workspace) {
  return {
    id: row.id,
    name: row.name,
    repositoryIdentity: row.repositoryIdentity,
    generation: row.generation,
    trusted: row.trusted,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toMaintainerView(row: WorkspaceMember & { user: Person }) {
  return {
    userId: row.userId,
    email: row.user.email,
    displayName: row.user.displayName,
    since: row.createdAt.toISOString(),
  };
}

/** Never the secret hash: only what `tokenView` declares. */
export function toTokenView(row: ApiToken) {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    prefix: row.prefix,
    // Stored as text[]: a scope since retired is dropped rather than failing the whole list.
    scopes: row.scopes.filter(isScope),
    userId: row.userId,
    workspaceIds: row.workspaceIds,
    pool: row.pool,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

export const PERSON = { select: { email: true, displayName: true } } as const;
