// Hashing is not I/O: node:crypto's sha256 is a pure function of its input, so this stays a pure lib.
import { createHash } from 'node:crypto';
import type { ActivationEntry, ActivationView, ActivationWorkspace, EntrySource } from './activation-types';
import { bindsToWorkspace, isPrincipalBound } from './source-tier.policy';

/**
 * The exact identity an approval (and an approval request) is bound to. Every field must match for an approval
 * to count; a field the entry does not bind to is null, and null matches only null.
 */
export interface ApprovalIdentity {
  /** `aid:v1:<sha256 hex>` over every field below: one open request per key. */
  readonly key: string;
  readonly serverName: string;
  readonly source: EntrySource;
  readonly definitionFingerprint: string;
  readonly securityIdentity: string;
  /** Set exactly for per-user entries: user A's approval can never approve user B. */
  readonly principalUserId: string | null;
  /** Set exactly for sources outside managed/user. */
  readonly repositoryIdentity: string | null;
  readonly workspaceGeneration: number | null;
}

/**
 * - `entry_unusable`: the entry did not resolve (an unset variable, say): there is no exact definition to bind to.
 * - `principal_required`: the entry depends on a user's own tiers or variables, so it is approved per user and
 *   is not approvable for the workspace alone.
 */
export type ApprovalIdentityRefusal = 'entry_unusable' | 'principal_required';

export type ApprovalIdentityResult =
  | { readonly ok: true; readonly identity: ApprovalIdentity }
  | { readonly ok: false; readonly reason: ApprovalIdentityRefusal };

const KEY_DOMAIN = 'gatehouse.approval-identity.v1';

// Length-prefixed and tagged, so no two different tuples encode alike (text cannot shift between fields, and an
// absent value is not the text "null").
function encode(fields: readonly (string | number | null)[]): string {
  let out = `S${KEY_DOMAIN.length}:${KEY_DOMAIN}`;
  for (const field of fields) {
    if (field === null) out += 'N';
    else if (typeof field === 'number') out += `I${String(field)};`;
    else out += `S${field.length}:${field}`;
  }
  return out;
}

function keyOf(identity: Omit<ApprovalIdentity, 'key'>): string {
  const encoded = encode([
    identity.serverName,
    identity.source.tier,
    identity.source.origin,
    identity.definitionFingerprint,
    identity.securityIdentity,
    identity.principalUserId,
    identity.repositoryIdentity,
    identity.workspaceGeneration,
  ]);
  // UTF-16LE keeps lone surrogates distinct (UTF-8 would fold them into U+FFFD).
  return `aid:v1:${createHash('sha256').update(encoded, 'utf16le').digest('hex')}`;
}

/** The exact identity an approval request is opened for, and that an approval must match. */
export function approvalIdentityOf(
  entry: ActivationEntry,
  workspace: ActivationWorkspace,
  view: ActivationView,
): ApprovalIdentityResult {
  if (!entry.usable) return { ok: false, reason: 'entry_unusable' };
  const principalBound = isPrincipalBound(entry);
  if (principalBound && view.kind !== 'principal') return { ok: false, reason: 'principal_required' };
  const bound = bindsToWorkspace(entry.source.tier);
  const fields = {
    serverName: entry.name,
    source: { tier: entry.source.tier, origin: entry.source.origin },
    definitionFingerprint: entry.fingerprint,
    securityIdentity: entry.securityIdentity,
    principalUserId: principalBound && view.kind === 'principal' ? view.userId : null,
    repositoryIdentity: bound ? workspace.repositoryIdentity : null,
    workspaceGeneration: bound ? workspace.generation : null,
  };
  return { ok: true, identity: { key: keyOf(fields), ...fields } };
}
