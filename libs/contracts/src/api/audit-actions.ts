// The one table of audit actions and their readable labels (decision 0092). The API's writers record these
// codes; the dashboard shows the labels and the export carries both. A unit spec in apps/api finds every action
// the audit writers can record and fails when one is missing here, so a new writer cannot ship a bare code.

export const AUDIT_ACTION_LABELS = {
  'auth.login': 'Signed in',
  'auth.login_failed': 'Failed to sign in',
  'auth.logout': 'Signed out',
  'tenant.create': 'Created the tenant',
  'tenant.rename': 'Renamed the tenant',
  'users.passwordReset': 'Reset a password',
  'members.add': 'Added a member',
  'members.changeRole': 'Changed a member’s role',
  'members.remove': 'Removed a member',
  'invitations.create': 'Invited someone',
  'invitations.revoke': 'Revoked an invitation',
  'invitations.accept': 'Accepted an invitation',
  'workspaces.create': 'Created a workspace',
  'workspaces.rename': 'Renamed a workspace',
  'workspaces.setTrust': 'Changed a workspace’s trust',
  'workspaces.bumpGeneration': 'Started a new workspace generation',
  'workspaces.maintainers.add': 'Added a workspace maintainer',
  'workspaces.maintainers.remove': 'Removed a workspace maintainer',
  'tokens.create': 'Created an API token',
  'tokens.revoke': 'Revoked an API token',
  'hostPolicy.put': 'Changed the host policy',
  'definitions.sources.put': 'Saved a definition source',
  'definitions.sources.import': 'Imported a definition source',
  'definitions.sources.delete': 'Deleted a definition source',
  'definitions.overlays.set': 'Disabled a server',
  'definitions.overlays.clear': 'Enabled a server again',
  'definitions.variables.set': 'Set a variable',
  'definitions.variables.unset': 'Unset a variable',
  'approvals.requests.opened': 'Opened an approval request',
  'approvals.requests.withdrawn': 'Withdrew an approval request',
  'approvals.requests.decided': 'Decided an approval request',
  'approvals.requests.decision_refused': 'Was refused a decision',
  'approvals.revoked': 'Revoked an approval',
  'approvals.expired': 'An approval expired',
  'leases.issued': 'Issued a transport lease',
  'leases.refused': 'Was refused a transport lease',
  'leases.renewed': 'Renewed a transport lease',
  'leases.renewal_refused': 'Was refused a lease renewal',
  'leases.released': 'Released a transport lease',
  'catalog.submitted': 'Submitted a tool catalog',
  'catalog.submit_refused': 'Was refused a tool catalog submission',
  'catalog.discovery_failed': 'Reported a failed catalog discovery',
  'catalog.discovery_failure_refused': 'Was refused a catalog discovery failure report',
  'catalog.refresh.requested': 'Asked for a catalog refresh',
  'catalog.refresh.unroutable': 'A catalog refresh had no pool to run on',
  'oauth.sign_in_started': 'Started an OAuth sign-in',
  'oauth.sign_in_refused': 'Was refused an OAuth sign-in',
  'oauth.signed_in': 'Signed in to a server',
  'oauth.signed_out': 'Signed out of a server',
  'oauth.service_credential_chosen': 'Chose a workspace service credential',
  'oauth.service_credential_signed_out': 'Signed a workspace out of a service credential',
  'commands.refused': 'Was refused a change',
} as const satisfies Readonly<Record<string, string>>;

export type AuditAction = keyof typeof AUDIT_ACTION_LABELS;

export function isAuditAction(action: string): action is AuditAction {
  return Object.prototype.hasOwnProperty.call(AUDIT_ACTION_LABELS, action);
}

/** The readable label; an unknown code (an older or newer writer) shows as itself. */
export function auditActionLabel(action: string): string {
  return isAuditAction(action) ? AUDIT_ACTION_LABELS[action] : action;
}

/**
 * What the audit log's target filter offers, as action families: an overlay's row targets its workspace and a
 * member's row its user, so the stored target type alone cannot say "overlay" or "member"; the action's family
 * always can. Each family is a list of action prefixes (matched at a dot boundary, like the action filter).
 */
export const AUDIT_TARGET_KINDS = {
  approval: { label: 'Approval or request', actionPrefixes: ['approvals'] },
  source: { label: 'Definition source', actionPrefixes: ['definitions.sources'] },
  variable: { label: 'Variable', actionPrefixes: ['definitions.variables'] },
  overlay: { label: 'Disable overlay', actionPrefixes: ['definitions.overlays'] },
  token: { label: 'API token', actionPrefixes: ['tokens'] },
  member: { label: 'Member', actionPrefixes: ['members', 'workspaces.maintainers', 'users'] },
  invitation: { label: 'Invitation', actionPrefixes: ['invitations'] },
  workspace: { label: 'Workspace', actionPrefixes: ['workspaces'] },
  lease: { label: 'Lease', actionPrefixes: ['leases'] },
  catalog: { label: 'Catalog', actionPrefixes: ['catalog'] },
  oauth: { label: 'OAuth sign-in', actionPrefixes: ['oauth'] },
  session: { label: 'Dashboard sign-in', actionPrefixes: ['auth'] },
  tenant: { label: 'Tenant and host policy', actionPrefixes: ['tenant', 'hostPolicy'] },
  refusal: { label: 'Refused change', actionPrefixes: ['commands.refused'] },
} as const satisfies Readonly<Record<string, { label: string; actionPrefixes: readonly string[] }>>;

export type AuditTargetKind = keyof typeof AUDIT_TARGET_KINDS;
export const AUDIT_TARGET_KIND_NAMES = Object.keys(AUDIT_TARGET_KINDS) as [
  AuditTargetKind,
  ...AuditTargetKind[],
];

/** `family` names `action` itself or a dot-bounded prefix of it ('approvals' covers 'approvals.revoked'). */
export function isInAuditFamily(action: string, family: string): boolean {
  return action === family || action.startsWith(`${family}.`);
}
