import type { AuditEventView } from '../../views/api-views';

// Readable names for audit actions. Unknown actions (later issues add many) show their code, which is also
// what the audit log's action filter takes.

const ACTION_LABELS: Readonly<Record<string, string>> = {
  'auth.login': 'Signed in',
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
};

export function actionLabel(action: string): string {
  return ACTION_LABELS[action] ?? action;
}

export interface ActorDirectory {
  readonly [userId: string]: string | undefined;
}

export function actorLabel(event: AuditEventView, directory: ActorDirectory): string {
  if (event.actorId === null) return event.actorType;
  const name = directory[event.actorId];
  const via = event.tokenKind ? ` (${event.tokenKind} token)` : '';
  return `${name ?? `${event.actorType} ${event.actorId.slice(0, 8)}`}${via}`;
}

const TARGET_LABELS: Readonly<Record<string, string>> = {
  api_token: 'API token',
  workspace: 'workspace',
  user: 'user',
  session: 'session',
  tenant: 'tenant',
};

/** The target's kind, and its name when the event recorded one (a workspace's or token's name). */
export function targetLabel(event: AuditEventView): string {
  const kind = TARGET_LABELS[event.targetType] ?? event.targetType;
  const name = typeof event.data['name'] === 'string' ? ` ${event.data['name']}` : '';
  return `${kind}${name}`;
}
