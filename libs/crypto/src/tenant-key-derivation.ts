import { hkdfSync } from 'node:crypto';
import { keyEncryptionKeyFor, type KeyRing } from './key-ring';

/**
 * What a derived tenant key is for. Each purpose derives its own key (it is part of the HKDF info), so a key
 * derived for one use can never serve another, and none of them is a key-encryption key.
 */
export const TENANT_KEY_PURPOSES = ['definition-fingerprint'] as const;
export type TenantKeyPurpose = (typeof TENANT_KEY_PURPOSES)[number];

/** Bytes in a derived tenant key (an HMAC-SHA256 key). */
export const TENANT_KEY_BYTES = 32;

// HKDF salt: a fixed domain string, so these derivations are apart from any other use of the ring's keys.
const SALT = Buffer.from('gatehouse.tenant-key.v1', 'utf8');

export type TenantKeyResult =
  | { readonly ok: true; readonly keyId: string; readonly key: Uint8Array }
  | { readonly ok: false; readonly reason: 'unknown_key' };

/**
 * A per-tenant key derived from one of the operator's key-encryption keys with HKDF-SHA256 (RFC 5869): salt a
 * fixed domain, info the purpose and the tenant id. The same ring material, purpose and tenant always give the
 * same key; another tenant, purpose or key gives an unrelated one. The key-encryption key itself never leaves
 * this lib. `keyId` defaults to the ring's active key; the result names the key it came from.
 *
 * The returned bytes are a fresh copy: the caller may wipe them when done.
 */
export function deriveTenantKey(
  ring: KeyRing,
  args: {
    readonly purpose: TenantKeyPurpose;
    readonly tenantId: string;
    readonly keyId?: string | undefined;
  },
): TenantKeyResult {
  // An empty tenant id would derive one key shared by every caller that forgot to pass it: a bug, not an input.
  if (args.tenantId.length === 0) throw new TypeError('deriveTenantKey needs a tenant id');
  if (!(TENANT_KEY_PURPOSES as readonly string[]).includes(args.purpose)) {
    throw new TypeError('deriveTenantKey: unknown purpose');
  }
  const keyId = args.keyId ?? ring.activeKeyId;
  const kek = keyEncryptionKeyFor(ring, keyId);
  if (kek === undefined) return { ok: false, reason: 'unknown_key' };
  // Purposes hold no NUL, so `purpose NUL tenantId` is unambiguous.
  const info = Buffer.from(`${args.purpose}\u0000${args.tenantId}`, 'utf8');
  const key = new Uint8Array(hkdfSync('sha256', kek, SALT, info, TENANT_KEY_BYTES));
  return { ok: true, keyId, key };
}
