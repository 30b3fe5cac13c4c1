// The shapes the dashboard reads from the API. The API declares them once in libs/commands (zod), which the
// dashboard may not import (it imports only @gatehouse/contracts); these are the few fields it renders, kept
// in step by the browser test that drives every page against the real API.

export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor: string | null;
}

export interface SessionView {
  readonly user: { readonly id: string; readonly email: string; readonly displayName: string };
  readonly tenant: { readonly id: string; readonly slug: string; readonly name: string };
  readonly role: string | null;
  readonly scopes: readonly string[];
  readonly expiresAt: string;
}

export interface SignInView {
  readonly csrfToken: string;
  readonly expiresAt: string;
}

export interface TenantView {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
  readonly createdAt: string;
}

export interface WorkspaceView {
  readonly id: string;
  readonly name: string;
  readonly repositoryIdentity: string | null;
  readonly generation: number;
  readonly trusted: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface MaintainerView {
  readonly userId: string;
  readonly email: string;
  readonly displayName: string;
  readonly since: string;
}

export interface MemberView {
  readonly userId: string;
  readonly email: string;
  readonly displayName: string;
  readonly role: string;
  readonly joinedAt: string;
}

export interface TokenView {
  readonly id: string;
  readonly name: string;
  readonly kind: string;
  readonly prefix: string;
  readonly scopes: readonly string[];
  readonly userId: string | null;
  readonly workspaceIds: readonly string[];
  readonly pool: string | null;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
  readonly expiresAt: string | null;
  readonly revokedAt: string | null;
}

export interface CreatedTokenView {
  readonly token: TokenView;
  readonly secret: string;
}

export interface AuditEventView {
  readonly id: string;
  readonly seq: number;
  readonly occurredAt: string;
  readonly actorType: string;
  readonly actorId: string | null;
  readonly tokenKind: string | null;
  readonly action: string;
  readonly targetType: string;
  readonly targetId: string | null;
  readonly outcome: string;
  readonly data: Readonly<Record<string, unknown>>;
  readonly hash: string;
}

export interface AuditHeadView {
  readonly tenantId: string;
  readonly seq: number;
  readonly hash: string;
  readonly at: string;
}

export interface AuditVerificationView {
  readonly ok: boolean;
  readonly checkedRows: number;
  readonly headSeq: number;
  readonly headHash: string;
  readonly firstBadSeq: number | null;
  readonly problem: string | null;
}
