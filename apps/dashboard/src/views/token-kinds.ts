import { KIND_SCOPES, type Scope, type TenantTokenKind } from '@gatehouse/contracts';

// The token kinds a tenant mints from the dashboard and the scopes each may ever hold: the API's own lists
// (@gatehouse/contracts, decision 0063). The API refuses a scope outside the kind anyway
// (`scope_not_allowed_for_kind`).

export { TENANT_TOKEN_KINDS, isTenantTokenKind, type TenantTokenKind } from '@gatehouse/contracts';

export const KIND_SCOPE_CEILING: Readonly<Record<TenantTokenKind, readonly Scope[]>> = Object.freeze({
  user: KIND_SCOPES.user,
  agent: KIND_SCOPES.agent,
  worker: KIND_SCOPES.worker,
});

export const KIND_SUMMARIES: Readonly<Record<TenantTokenKind, string>> = Object.freeze({
  user: 'Acts as you, with at most your own scopes. For scripts and the CLI.',
  agent: 'Bound to workspaces: reads their catalog and calls tools through the gateway.',
  worker: 'Runs in a worker pool: leases transports and posts catalog snapshots.',
});
