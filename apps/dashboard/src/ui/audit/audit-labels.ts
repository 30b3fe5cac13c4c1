import { auditActionLabel } from '@gatehouse/contracts';
import type { AuditEventView } from '@/views/api-views';

// Readable words for audit rows. The action labels are the one table in @gatehouse/contracts (decision 0092),
// the same the API's export carries; an unknown code (a newer writer) shows as itself, which is also what the
// action filter takes.

export function actionLabel(action: string): string {
  return auditActionLabel(action);
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
  command: 'command',
  approval: 'approval',
  approval_request: 'approval request',
  definition_source: 'definition source',
  definition_variable: 'variable',
  invitation: 'invitation',
  lease: 'lease',
  oauth_credential: 'OAuth sign-in',
  workspace: 'workspace',
  user: 'user',
  session: 'session',
  tenant: 'tenant',
};

function text(event: AuditEventView, key: string): string | undefined {
  const value = event.data[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A fingerprint cut to the digits a person compares at a glance (`v2:kind:<hex>`); the detail shows it whole. */
function short(value: string): string {
  const digest = value.slice(value.lastIndexOf(':') + 1);
  return digest.length > 12 ? `${digest.slice(0, 12)}…` : digest;
}

/**
 * What the row is about, in words: its kind and the name it recorded (the server, variable, token or
 * workspace), then the decision, the fingerprint and the expiry when the row has them.
 */
export function targetLabel(event: AuditEventView): string {
  const kind = TARGET_LABELS[event.targetType] ?? event.targetType;
  const name = text(event, 'serverName') ?? text(event, 'name') ?? text(event, 'origin');
  const parts = [name === undefined ? kind : `${kind} ${name}`];
  // The decision a request got (a revoke row carries the decision it ended, which is not news).
  const decision = event.action === 'approvals.requests.decided' ? text(event, 'decision') : undefined;
  if (decision !== undefined) parts.push(decision);
  const fingerprint = text(event, 'definitionFingerprint') ?? text(event, 'fingerprint');
  if (fingerprint !== undefined) parts.push(`fingerprint ${short(fingerprint)}`);
  const expiresAt = text(event, 'expiresAt');
  if (expiresAt !== undefined) parts.push(`expires ${expiresAt.slice(0, 16).replace('T', ' ')} UTC`);
  return parts.join(' · ');
}

/** The row's data as label/value pairs for its detail, the reason first (it is what a reader looks for). */
export function detailEntries(event: AuditEventView): { key: string; value: string }[] {
  const entries = Object.entries(event.data).map(([key, value]) => ({
    key,
    value: typeof value === 'string' ? value : JSON.stringify(value),
  }));
  return entries.sort((a, b) =>
    a.key === 'reason' ? -1 : b.key === 'reason' ? 1 : a.key.localeCompare(b.key),
  );
}
