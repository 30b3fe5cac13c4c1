import type { ActorDirectory } from '../audit/audit-labels';
import type { BadgeTone } from '../feedback';
import type {
  ActivationState,
  ActivationView,
  ApprovalRequestStatus,
  ApprovalRequestTrigger,
  ApprovalRequestView,
  ApprovalView,
  ProjectionChangeView,
  StaleField,
} from '@/views/approval-views';

// Words for the approval workflow's codes (activation states and reasons, stale fields, triggers) and the
// formatting of a projection diff. Pure; the codes stay visible next to the words wherever a person might
// search docs or logs for them.

export const ACTIVATION_STATE_LABELS: Readonly<Record<ActivationState, { label: string; tone: BadgeTone }>> =
  {
    approved: { label: 'Approved', tone: 'positive' },
    pending: { label: 'Pending', tone: 'caution' },
    denied: { label: 'Denied', tone: 'negative' },
    stale: { label: 'Stale', tone: 'caution' },
    untrusted: { label: 'Untrusted', tone: 'negative' },
    revoked: { label: 'Revoked', tone: 'negative' },
  };

export const ACTIVATION_REASON_LABELS: Readonly<Record<string, string>> = {
  untrusted_workspace_source: 'Project, local and plugin sources are refused in an untrusted workspace',
  requires_trusted_workspace: 'The definition requires a trusted workspace',
  entry_unusable: 'It does not resolve, so there is nothing exact to approve',
  principal_required: 'It is approved per person: see it “As me”',
  no_admission_decision: 'Nobody has approved or denied it yet',
  approval_expired: 'Its approval expired',
  approval_matches: 'An approval holds for exactly this definition',
  denial_matches: 'It was denied',
  approval_revoked: 'Its approval was revoked',
  approval_stale: 'It changed since it was approved',
};

export function activationReasonLabel(reason: string): string {
  return ACTIVATION_REASON_LABELS[reason] ?? reason.replaceAll('_', ' ');
}

export const STALE_FIELD_LABELS: Readonly<Record<StaleField, string>> = {
  source: 'the winning source',
  fingerprint: 'the definition',
  fingerprint_scheme:
    'how definitions are fingerprinted (an approval from before keyed fingerprints, or another key)',
  identity: 'what it runs or connects to',
  repository: 'the repository',
  generation: 'the workspace generation',
};

/** "the definition and the workspace generation", in the order the API listed them. */
export function describeStaleFields(fields: readonly StaleField[]): string {
  const words = fields.map((field) => STALE_FIELD_LABELS[field] ?? field);
  if (words.length <= 1) return words[0] ?? 'its identity';
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

export const TRIGGER_LABELS: Readonly<Record<ApprovalRequestTrigger, string>> = {
  source_written: 'A source was written',
  variable_changed: 'A variable changed',
  overlay_changed: 'An overlay changed',
  generation_bumped: 'A new workspace generation',
  trust_changed: 'Workspace trust changed',
  lease_refused_pending: 'A lease waited for approval',
  review_requested: 'Review requested',
};

export function triggerLabel(trigger: string): string {
  return TRIGGER_LABELS[trigger as ApprovalRequestTrigger] ?? trigger.replaceAll('_', ' ');
}

/** How long an approval may hold, in days (the decision dialog's choices); none: until revoked or changed. */
export const EXPIRY_DAYS = [1, 7, 30, 90] as const;

export const REQUEST_STATUS_LABELS: Readonly<
  Record<ApprovalRequestStatus, { label: string; tone: BadgeTone }>
> = {
  open: { label: 'Open', tone: 'accent' },
  decided: { label: 'Decided', tone: 'neutral' },
  superseded: { label: 'Superseded', tone: 'neutral' },
  withdrawn: { label: 'Withdrawn', tone: 'neutral' },
};

/** Why a closed request closed, as its page says it. */
export const CLOSE_REASON_WORDS: Readonly<Record<NonNullable<ApprovalRequestView['closeReason']>, string>> = {
  decided: 'Someone decided it.',
  superseded: 'The server changed again before anyone decided, so a newer request replaced this one.',
  identity_gone:
    'What it was opened for no longer exists in its view (a variable was unset, or the server changed back or went away), so there is nothing left to decide.',
};

const VARIABLE_SCOPE_WORDS = { tenant: 'Tenant', workspace: 'Workspace', user: 'Personal' } as const;

/**
 * What opened a request, in words, when the API recorded it ("Personal variable GITHUB_TOKEN set"); null for
 * causes it did not name, and the page falls back to the trigger.
 */
export function causeLabel(cause: ApprovalRequestView['cause']): string | null {
  if (cause === null) return null;
  switch (cause.kind) {
    case 'variable_set':
    case 'variable_unset': {
      const whose = cause.scope === null ? 'Variable' : `${VARIABLE_SCOPE_WORDS[cause.scope]} variable`;
      return `${whose} ${cause.subject} ${cause.kind === 'variable_set' ? 'set' : 'unset'}`;
    }
    case 'source_written':
      return `Source ${cause.subject} written`;
    case 'overlay_set':
      return `${cause.subject} disabled`;
    case 'overlay_cleared':
      return `${cause.subject} enabled again`;
  }
}

/** Why an approved server can never be leased (the API's codes: authority reasons, destination, pools). */
export const ADMISSION_REASON_LABELS: Readonly<Record<string, string>> = {
  no_pool_open: 'no worker pool is open to this organization',
  destination_refused: 'its URL is refused (a private, metadata or unreachable destination)',
  stdio_not_allowed_on_pool: 'the pool does not run local (stdio) servers',
  command_not_allowed: 'its command is not in the host policy’s allowed commands',
  command_outside_ceiling: 'its command is outside what the operator allows on the pool',
  env_key_not_allowed: 'it sets an environment variable the pool’s allowlist does not name',
  cwd_outside_allowed_roots: 'its working directory is outside the allowed roots',
  no_allowed_root: 'the pool has no allowed root for a working directory',
  nul_in_launch: 'its command line holds a NUL character',
  header_helpers_not_allowed_on_pool: 'the pool does not run header helpers',
};

export function admissionReasonLabel(reason: string): string {
  return ADMISSION_REASON_LABELS[reason] ?? reason.replaceAll('_', ' ');
}

/** "approved but not admissible: the pool does not run local (stdio) servers; …" */
export function notAdmissibleLine(reasons: readonly string[]): string {
  const words = reasons.map(admissionReasonLabel);
  return `Approved but not admissible: ${words.length === 0 ? 'no pool can run it' : words.join('; ')}`;
}

/** Where a recorded decision stands now: revoked, an approval past its expiry, or in force. */
export function decisionStateOf(approval: ApprovalView, now: Date): { label: string; tone: BadgeTone } {
  if (approval.revokedAt !== null) return { label: 'Revoked', tone: 'neutral' };
  if (approval.expiresAt !== null && new Date(approval.expiresAt) <= now)
    return { label: 'Expired', tone: 'caution' };
  return { label: 'In force', tone: 'accent' };
}

export const DECISION_LABELS: Readonly<Record<ApprovalView['decision'], { label: string; tone: BadgeTone }>> =
  {
    approved: { label: 'Approved', tone: 'positive' },
    denied: { label: 'Denied', tone: 'negative' },
  };

/**
 * What asking for review does, named for it: after a denial or a revocation it asks approvers to decide again
 * (nothing runs until they approve); otherwise it opens the first review or the one after a change.
 */
export function askForReviewLabel(activation: ActivationView): string {
  switch (activation.state) {
    case 'denied':
      return 'Ask approvers to reconsider the denial';
    case 'revoked':
      return 'Ask approvers to approve it again';
    default:
      return 'Ask for review';
  }
}

/** Whether "Ask for review" can lead anywhere: nothing open yet, and a resolved entry a decision could cover. */
export function mayAskForReview(activation: ActivationView, resolved: boolean): boolean {
  if (!resolved || activation.openRequestId !== null) return false;
  switch (activation.state) {
    case 'denied':
    case 'revoked':
    case 'stale':
      return true;
    case 'pending':
      return (
        activation.reasons.includes('no_admission_decision') ||
        activation.reasons.includes('approval_expired')
      );
    case 'approved':
    case 'untrusted':
      return false;
  }
}

/** A user id as a name from the member list, or its first characters when the reader cannot list members. */
export function personLabel(userId: string, directory: ActorDirectory): string {
  return directory[userId] ?? `user ${userId.slice(0, 8)}`;
}

export const CHANGE_KIND_LABELS: Readonly<Record<ProjectionChangeView['kind'], string>> = {
  added: 'Added',
  removed: 'Removed',
  changed: 'Changed',
};

/**
 * An env or header key whose VALUE changed, was added or removed since the last approval: the API names the key
 * at `transport.<env|headers>.values.<KEY>` and never sends the value (neither side). Null for any other change.
 */
export function valueChangeOf(
  change: Pick<ProjectionChangeView, 'path' | 'before' | 'after'>,
): { readonly section: 'env' | 'headers'; readonly key: string } | null {
  const [root, section, values, key, ...rest] = change.path;
  if (root !== 'transport' || values !== 'values' || key === undefined || rest.length > 0) return null;
  if (section !== 'env' && section !== 'headers') return null;
  if (change.before !== undefined || change.after !== undefined) return null;
  return { section, key };
}

const SECTION_WORDS = { env: 'env', headers: 'header' } as const;

/** A field's path in the projection (`transport.url`); the root itself when the path is empty. */
export function changePath(path: readonly string[]): string {
  const value = valueChangeOf({ path });
  if (value !== null) return `${SECTION_WORDS[value.section]} ${value.key} (value)`;
  return path.length === 0 ? '(the whole definition)' : path.join('.');
}

const MAX_VALUE_CHARS = 400;
const MAX_DEPTH = 6;

function formatValue(value: unknown, depth: number): string {
  if (value === undefined) return 'absent';
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return String(value);
  // Quoted, so an empty string, a space or the text "null" read as what they are.
  if (typeof value === 'string') return JSON.stringify(value);
  if (depth >= MAX_DEPTH) return '…';
  if (Array.isArray(value)) return `[${value.map((item) => formatValue(item, depth + 1)).join(', ')}]`;
  if (typeof value === 'object') {
    const members = Object.entries(value as Record<string, unknown>)
      .filter(([, member]) => member !== undefined)
      .map(([key, member]) => `${JSON.stringify(key)}: ${formatValue(member, depth + 1)}`);
    return members.length === 0 ? '{}' : `{ ${members.join(', ')} }`;
  }
  return String(value);
}

/**
 * One side of a change, on one line: strings quoted, lists and objects as compact JSON with spaces, very long
 * values shortened. The value is the API's redacted one, so a masked secret shows as its mask.
 */
export function formatDiffValue(value: unknown): string {
  const text = formatValue(value, 0);
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}

/** The change in words for a screen reader or a title: "transport.url changed from "a" to "b"". */
export function describeChange(change: ProjectionChangeView): string {
  const value = valueChangeOf(change);
  if (value !== null) {
    const name = `${SECTION_WORDS[value.section]} ${value.key}`;
    const named = `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
    switch (change.kind) {
      case 'changed':
        return `The value of ${name} changed (values are never shown)`;
      case 'added':
        return `${named} was added (values are never shown)`;
      case 'removed':
        return `${named} was removed (values are never shown)`;
    }
  }
  const path = changePath(change.path);
  switch (change.kind) {
    case 'added':
      return `${path} added: ${formatDiffValue(change.after)}`;
    case 'removed':
      return `${path} removed (was ${formatDiffValue(change.before)})`;
    case 'changed':
      return `${path} changed from ${formatDiffValue(change.before)} to ${formatDiffValue(change.after)}`;
  }
}

/**
 * What a reviewed projection runs or connects to, when it has the definitions API's shape (a stdio command
 * line or an http URL); null otherwise, and the page shows the projection as it is.
 */
export function targetOfProjection(
  projection: Readonly<Record<string, unknown>>,
): { readonly kind: 'stdio' | 'http'; readonly target: string } | null {
  const transport = projection['transport'];
  if (typeof transport !== 'object' || transport === null) return null;
  const fields = transport as Record<string, unknown>;
  if (fields['kind'] === 'stdio' && typeof fields['commandLine'] === 'string') {
    return { kind: 'stdio', target: fields['commandLine'] };
  }
  if (fields['kind'] === 'http' && typeof fields['url'] === 'string')
    return { kind: 'http', target: fields['url'] };
  return null;
}
