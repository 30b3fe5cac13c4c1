// What a token kind may ever do. Use cases check ownership and role on top of this; a scope only opens the door.

export const SCOPES = [
  'tenant:read',
  'tenant:write',
  'members:read',
  'members:write',
  'workspaces:read',
  'workspaces:write',
  'tokens:read',
  'tokens:write',
  'audit:read',
  'approvals:read',
  'approvals:decide',
  'catalog:read',
  'gateway:use',
  'leases:write',
  'snapshots:write',
  'tokens:introspect',
  // Server definitions: every role reads; owner/admin/approver/member write, and the definition use cases then
  // enforce the tier rules (DESIGN.md trust model: managed/plugin admins, project maintainers, user/local self).
  'definitions:read',
  'definitions:write',
] as const;

export type Scope = (typeof SCOPES)[number];

export const TOKEN_KINDS = ['user', 'agent', 'worker', 'gateway'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

export const MEMBERSHIP_ROLES = ['owner', 'admin', 'approver', 'member'] as const;
export type MembershipRole = (typeof MEMBERSHIP_ROLES)[number];

const ADMIN_SCOPES: readonly Scope[] = [
  'tenant:read',
  'tenant:write',
  'members:read',
  'members:write',
  'workspaces:read',
  'workspaces:write',
  'tokens:read',
  'tokens:write',
  'audit:read',
  'approvals:read',
  'approvals:decide',
  'catalog:read',
  'definitions:read',
  'definitions:write',
];

/** The scopes a person holds through their role in a tenant (sessions, and the ceiling of their user tokens). */
export const ROLE_SCOPES: Readonly<Record<MembershipRole, readonly Scope[]>> = Object.freeze({
  owner: ADMIN_SCOPES,
  admin: ADMIN_SCOPES,
  // tokens:write lets approvers and members mint and revoke their OWN user tokens (an approver deciding over
  // the API needs one); the token use cases refuse them every other token.
  approver: [
    'tenant:read',
    'members:read',
    'workspaces:read',
    'tokens:read',
    'tokens:write',
    'audit:read',
    'approvals:read',
    'approvals:decide',
    'catalog:read',
    'definitions:read',
    'definitions:write',
  ],
  member: [
    'tenant:read',
    'workspaces:read',
    'tokens:read',
    'tokens:write',
    'catalog:read',
    'definitions:read',
    'definitions:write',
  ],
});

/** The ceiling of each token kind: a scope outside it is refused when the token is created. */
export const KIND_SCOPES: Readonly<Record<TokenKind, readonly Scope[]>> = Object.freeze({
  user: ADMIN_SCOPES,
  agent: ['catalog:read', 'gateway:use'],
  worker: ['catalog:read', 'leases:write', 'snapshots:write'],
  gateway: ['tokens:introspect', 'leases:write', 'catalog:read'],
});

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** Scopes in `requested` that `kind` may never hold (empty when the request is allowed). */
export function scopesBeyondKind(kind: TokenKind, requested: readonly Scope[]): Scope[] {
  const ceiling = KIND_SCOPES[kind];
  return requested.filter((scope) => !ceiling.includes(scope));
}

/** Scopes in `requested` that the role does not hold (a user can never mint more than they have). */
export function scopesBeyondRole(role: MembershipRole, requested: readonly Scope[]): Scope[] {
  const held = ROLE_SCOPES[role];
  return requested.filter((scope) => !held.includes(scope));
}
