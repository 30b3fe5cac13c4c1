// What the signed-in person may do in the dashboard, from the scopes and role the API reports for their
// session (GET /v1/auth/session). Pages and server actions check these before calling the API so a member never
// sees an admin action or reaches one by URL; the API enforces the same scopes again on every call.

import type { MembershipRole, Scope } from '@gatehouse/contracts';

// The roles and scopes are the API's own lists (@gatehouse/contracts, decision 0063).
export { MEMBERSHIP_ROLES, type MembershipRole } from '@gatehouse/contracts';

export interface Capabilities {
  readonly readTenant: boolean;
  readonly readWorkspaces: boolean;
  readonly manageWorkspaces: boolean;
  readonly readMembers: boolean;
  readonly manageMembers: boolean;
  readonly readTokens: boolean;
  /** Every role mints user tokens for itself (within its own scopes) and revokes its own tokens. */
  readonly createTokens: boolean;
  /** Agent and worker tokens are minted by owners and admins only (the API's token-creation policy). */
  readonly createServiceTokens: boolean;
  readonly readAudit: boolean;
  /** The approval queue and history (owners, admins and approvers). */
  readonly readApprovals: boolean;
  /** Approve or deny a request (owners, admins and approvers). */
  readonly decideApprovals: boolean;
  /** Revoke a decision: owners and admins only (the API's approvals.revoke refuses approvers). */
  readonly revokeApprovals: boolean;
  /** Ask for review of a server: every role that reads definitions. */
  readonly requestReview: boolean;
  /** The tenant's HostPolicy (hostPolicy.get/put: tenant:write, owners and admins). */
  readonly manageHostPolicy: boolean;
  /** A workspace's catalog as the person gets it (catalog.get: catalog:read, every role). */
  readonly readCatalog: boolean;
  /** "Refresh now" on a server's catalog (catalog.refresh: owners, admins and approvers). */
  readonly refreshCatalog: boolean;
  /** Signing in to and out of OAuth-protected servers, for oneself (oauth.*: definitions:write). */
  readonly signInToServers: boolean;
}

export type Capability = keyof Capabilities;

export function capabilitiesOf(scopes: readonly Scope[], role: MembershipRole | null): Capabilities {
  const has = (scope: Scope) => scopes.includes(scope);
  const isAdmin = role === 'owner' || role === 'admin';
  return {
    readTenant: has('tenant:read'),
    readWorkspaces: has('workspaces:read'),
    manageWorkspaces: has('workspaces:write'),
    readMembers: has('members:read'),
    manageMembers: has('members:write'),
    readTokens: has('tokens:read'),
    createTokens: has('tokens:write'),
    createServiceTokens: has('tokens:write') && isAdmin,
    readAudit: has('audit:read'),
    readApprovals: has('approvals:read'),
    decideApprovals: has('approvals:decide'),
    revokeApprovals: has('approvals:decide') && isAdmin,
    requestReview: has('definitions:read'),
    manageHostPolicy: has('tenant:write') && isAdmin,
    readCatalog: has('catalog:read'),
    refreshCatalog: has('catalog:refresh'),
    signInToServers: has('definitions:write'),
  };
}

/** The sentence a "not allowed" page shows for each capability. */
export const CAPABILITY_NEEDS: Readonly<Record<Capability, string>> = Object.freeze({
  readTenant: 'Viewing the tenant needs the tenant:read scope.',
  readWorkspaces: 'Viewing workspaces needs the workspaces:read scope.',
  manageWorkspaces: 'Creating and changing workspaces needs the workspaces:write scope (owners and admins).',
  readMembers: 'Viewing members needs the members:read scope (owners, admins and approvers).',
  manageMembers: 'Adding members and changing roles needs the members:write scope (owners and admins).',
  readTokens: 'Viewing API tokens needs the tokens:read scope.',
  createTokens: 'Creating and revoking API tokens needs the tokens:write scope.',
  createServiceTokens: 'Agent and worker tokens are created by owners and admins.',
  readAudit: 'Reading the audit log needs the audit:read scope (owners, admins and approvers).',
  readApprovals: 'The approval queue needs the approvals:read scope (owners, admins and approvers).',
  decideApprovals: 'Approving and denying needs the approvals:decide scope (owners, admins and approvers).',
  revokeApprovals: 'Revoking a decision is for owners and admins.',
  requestReview: 'Asking for review needs the definitions:read scope.',
  manageHostPolicy: 'The host policy is managed by owners and admins (tenant:write).',
  readCatalog: 'Reading a catalog needs the catalog:read scope.',
  refreshCatalog: 'Refreshing a catalog needs the catalog:refresh scope (owners, admins and approvers).',
  signInToServers: 'Signing in to servers needs the definitions:write scope.',
});
