import { z } from 'zod';

// What a token kind or a role may ever do: the lists the API checks and the dashboard offers. Use cases check
// ownership and role on top of this; a scope only opens the door.

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
  // The revocation ledger's catch-up read (revocations.list): lease holders, and owners and admins.
  'revocations:read',
  // catalog.refresh: people ask for a server's catalog now; lease holders report a list_changed they saw.
  'catalog:refresh',
  // Server definitions: every role reads; owner/admin/approver/member write, and the definition use cases then
  // enforce the tier rules (the trust model, docs/architecture/README.md: managed/plugin admins, project
  // maintainers, user/local self).
  'definitions:read',
  'definitions:write',
] as const;

export type Scope = (typeof SCOPES)[number];

export const TOKEN_KINDS = ['user', 'agent', 'worker', 'gateway'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

/** Tenant admins mint user, agent and worker tokens; gateway tokens come only from the operator's CLI. */
export const TENANT_TOKEN_KINDS = ['user', 'agent', 'worker'] as const satisfies readonly TokenKind[];
export type TenantTokenKind = (typeof TENANT_TOKEN_KINDS)[number];

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
  'catalog:refresh',
  'definitions:read',
  'definitions:write',
  'revocations:read',
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
    'catalog:refresh',
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
  worker: ['catalog:read', 'leases:write', 'snapshots:write', 'revocations:read', 'catalog:refresh'],
  gateway: ['tokens:introspect', 'leases:write', 'catalog:read', 'revocations:read', 'catalog:refresh'],
});

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

export function isTenantTokenKind(value: string): value is TenantTokenKind {
  return (TENANT_TOKEN_KINDS as readonly string[]).includes(value);
}

export const scope = z.enum(SCOPES);
export const tokenKind = z.enum(TOKEN_KINDS);
export const tenantTokenKind = z.enum(TENANT_TOKEN_KINDS);
export const membershipRole = z.enum(MEMBERSHIP_ROLES);
