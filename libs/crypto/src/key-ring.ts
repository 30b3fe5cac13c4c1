import { createSecretKey, type KeyObject } from 'node:crypto';
import { inspect } from 'node:util';

/** Bytes in one key-encryption key (AES-256). */
export const KEY_LENGTH_BYTES = 32;

/**
 * A key id travels in every ciphertext header and in operator config, so it is kept short and printable.
 * It is not secret: it may appear in logs and error results.
 */
const KEY_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const BASE64_PATTERN = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function isValidKeyId(keyId: string): boolean {
  return KEY_ID_PATTERN.test(keyId);
}

export type KeyRingParseFailure =
  /** An entry is not `<kid>:<base64>`, the kid is not printable, or the key is not base64. */
  | { ok: false; reason: 'bad_format'; entry: number }
  | { ok: false; reason: 'wrong_key_length'; entry: number; keyId: string }
  | { ok: false; reason: 'duplicate_key_id'; entry: number; keyId: string }
  | { ok: false; reason: 'active_key_missing'; keyId: string };

export type KeyRingParseResult = { ok: true; keyRing: KeyRing } | KeyRingParseFailure;

export type KeyRingConfig = {
  /** `kid1:<base64 of 32 bytes>,kid2:<base64>`, as the operator configured it. */
  keys: string;
  /** The key id new ciphertexts are wrapped with. */
  activeKeyId: string;
};

/**
 * Key material is kept in a module-private WeakMap rather than on the instance, so no enumeration,
 * serialization or inspection of a KeyRing (even `showHidden`) can reach it. Only this lib's cipher reads it,
 * through `keyEncryptionKeyFor`, which the lib's index does not export.
 */
const materialByRing = new WeakMap<KeyRing, ReadonlyMap<string, KeyObject>>();

/** The operator's key-encryption keys (KEKs) by id, and which one wraps new data keys. */
export class KeyRing {
  readonly activeKeyId: string;
  readonly keyIds: readonly string[];

  private constructor(keys: ReadonlyMap<string, KeyObject>, activeKeyId: string) {
    this.activeKeyId = activeKeyId;
    this.keyIds = Object.freeze([...keys.keys()]);
    materialByRing.set(this, keys);
    Object.freeze(this);
  }

  /** Parses operator config. Failures name the entry index and key id, never the key material. */
  static parse(config: KeyRingConfig): KeyRingParseResult {
    const parsed = parseEntries(config.keys);
    if (!parsed.ok) return parsed;
    if (!parsed.keys.has(config.activeKeyId)) {
      return { ok: false, reason: 'active_key_missing', keyId: config.activeKeyId };
    }
    return { ok: true, keyRing: new KeyRing(parsed.keys, config.activeKeyId) };
  }

  has(keyId: string): boolean {
    return materialByRing.get(this)?.has(keyId) ?? false;
  }

  toJSON(): { activeKeyId: string; keyIds: readonly string[] } {
    return { activeKeyId: this.activeKeyId, keyIds: this.keyIds };
  }

  toString(): string {
    return `KeyRing(active=${this.activeKeyId}, keys=${this.keyIds.join(',')})`;
  }

  [inspect.custom](): string {
    return this.toString();
  }
}

/** @internal Not exported from the lib: the cipher's only way to the key material. */
export function keyEncryptionKeyFor(ring: KeyRing, keyId: string): KeyObject | undefined {
  return materialByRing.get(ring)?.get(keyId);
}

/** Same as `KeyRing.parse`. */
export function parseKeyRing(config: KeyRingConfig): KeyRingParseResult {
  return KeyRing.parse(config);
}

type ParsedEntries =
  | { ok: true; keys: ReadonlyMap<string, KeyObject> }
  | Exclude<KeyRingParseFailure, { reason: 'active_key_missing' }>;

function parseEntries(text: string): ParsedEntries {
  const keys = new Map<string, KeyObject>();
  for (const [entry, raw] of text.split(',').entries()) {
    const item = raw.trim();
    const separator = item.indexOf(':');
    if (separator <= 0) return { ok: false, reason: 'bad_format', entry };
    const keyId = item.slice(0, separator);
    const encoded = item.slice(separator + 1).trim();
    if (!isValidKeyId(keyId) || encoded.length === 0 || !BASE64_PATTERN.test(encoded)) {
      return { ok: false, reason: 'bad_format', entry };
    }
    if (keys.has(keyId)) return { ok: false, reason: 'duplicate_key_id', entry, keyId };
    const material = Buffer.from(encoded, 'base64');
    if (material.length !== KEY_LENGTH_BYTES) {
      material.fill(0);
      return { ok: false, reason: 'wrong_key_length', entry, keyId };
    }
    // createSecretKey copies the bytes; wipe our copy so it does not linger in the heap longer than needed.
    keys.set(keyId, createSecretKey(material));
    material.fill(0);
  }
  return { ok: true, keys };
}
