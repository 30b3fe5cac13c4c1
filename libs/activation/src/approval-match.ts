import { STALE_FIELDS, type StaleField } from '@gatehouse/contracts';
import type { ApprovalIdentity } from './approval-identity';
import type { ApprovalRecord } from './approval-record';

// What differs between an approval and the identity it is checked against (the order is fixed): declared once
// in @gatehouse/contracts, whose activation view carries it.
export { STALE_FIELDS, type StaleField };

/**
 * The scheme a fingerprint names in its prefix: `sha256` (v1, unkeyed) or `v2:<key id>` (keyed). Two
 * fingerprints of different schemes are never comparable.
 */
function fingerprintScheme(fingerprint: string): string {
  const parts = fingerprint.split(':');
  return parts[0] === 'v2' ? `v2:${parts[1] ?? ''}` : (parts[0] ?? '');
}

/**
 * Whether a record speaks about the same server for the same principal binding at all. The principal is never
 * a "change": user A's approval says nothing about user B, and a per-user approval says nothing about the
 * workspace alone (or the other way round), so such records are not even stale, they are someone else's.
 */
export function concernsSameSubject(identity: ApprovalIdentity, record: ApprovalRecord): boolean {
  return record.serverName === identity.serverName && record.principalUserId === identity.principalUserId;
}

/**
 * The fields in which the record differs from the identity (empty: an exact match). Repository and generation
 * are compared only where the identity binds to them (sources outside managed/user); there a record without
 * them differs.
 */
export function differencesFrom(identity: ApprovalIdentity, record: ApprovalRecord): StaleField[] {
  const changed: StaleField[] = [];
  if (record.source.tier !== identity.source.tier || record.source.origin !== identity.source.origin) {
    changed.push('source');
  }
  if (record.definitionFingerprint !== identity.definitionFingerprint) {
    const sameScheme =
      fingerprintScheme(record.definitionFingerprint) === fingerprintScheme(identity.definitionFingerprint);
    changed.push(sameScheme ? 'fingerprint' : 'fingerprint_scheme');
  }
  if (record.securityIdentity !== identity.securityIdentity) changed.push('identity');
  if (identity.repositoryIdentity !== null && record.repositoryIdentity !== identity.repositoryIdentity) {
    changed.push('repository');
  }
  if (identity.workspaceGeneration !== null && record.workspaceGeneration !== identity.workspaceGeneration) {
    changed.push('generation');
  }
  return changed;
}

/** Exact identity match: same subject and no field differs. */
export function matchesExactly(identity: ApprovalIdentity, record: ApprovalRecord): boolean {
  return concernsSameSubject(identity, record) && differencesFrom(identity, record).length === 0;
}
