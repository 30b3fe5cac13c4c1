// The token kinds a tenant mints from the dashboard and the scopes each may ever hold. Mirrors KIND_SCOPES in
// libs/commands (not importable here); scripts/dashboard-mirrors.spec.ts fails when the two differ, and the API
// refuses a scope outside the kind anyway (`scope_not_allowed_for_kind`), so a drift is never a wider token.

export const TENANT_TOKEN_KINDS = ['user', 'agent', 'worker'] as const;
export type TenantTokenKind = (typeof TENANT_TOKEN_KINDS)[number];

export const KIND_SCOPE_CEILING: Readonly<Record<TenantTokenKind, readonly string[]>> = Object.freeze({
  user: [
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
  ],
  agent: ['catalog:read', 'gateway:use'],
  worker: ['catalog:read', 'leases:write', 'snapshots:write'],
});

export const KIND_SUMMARIES: Readonly<Record<TenantTokenKind, string>> = Object.freeze({
  user: 'Acts as you, with at most your own scopes. For scripts and the CLI.',
  agent: 'Bound to workspaces: reads their catalog and calls tools through the gateway.',
  worker: 'Runs in a worker pool: leases transports and posts catalog snapshots.',
});

export function isTenantTokenKind(value: string): value is TenantTokenKind {
  return (TENANT_TOKEN_KINDS as readonly string[]).includes(value);
}
