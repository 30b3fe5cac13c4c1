import { createCipheriv, createDecipheriv, randomBytes, type KeyObject } from 'node:crypto';
import { inspect } from 'node:util';
import { concatBytes, encodeEncryptionContext, type EncryptionContext } from './encryption-context';
import {
  DATA_KEY_BYTES,
  envelopeHeader,
  IV_BYTES,
  keyIdOf,
  parseEnvelope,
  TAG_BYTES,
} from './envelope-format';
import { keyEncryptionKeyFor, type KeyRing } from './key-ring';
import { deriveTenantKey, type TenantKeyPurpose, type TenantKeyResult } from './tenant-key-derivation';

export type DecryptFailureReason = 'unknown_key' | 'malformed' | 'authentication_failed';
export type DecryptResult = { ok: true; plaintext: Uint8Array } | { ok: false; reason: DecryptFailureReason };
export type ReencryptResult =
  { ok: true; ciphertext: Uint8Array } | { ok: false; reason: DecryptFailureReason };

const ALGORITHM = 'aes-256-gcm';
// Domain separation between the two AES-GCM operations that share one AAD.
const PURPOSE_WRAP = Uint8Array.of(0x01);
const PURPOSE_DATA = Uint8Array.of(0x02);

/**
 * Envelope encryption: every value gets a fresh random 256-bit data key; the value is sealed with it under
 * AES-256-GCM, and the data key is sealed (wrapped) with the ring's active key-encryption key, also AES-256-GCM.
 * Both seals authenticate the ciphertext header (version, key id) and the row identity (EncryptionContext).
 */
export class EnvelopeCipher {
  readonly #ring: KeyRing;

  constructor(ring: KeyRing) {
    this.#ring = ring;
  }

  get activeKeyId(): string {
    return this.#ring.activeKeyId;
  }

  /** Ciphertexts wrapped with the active key in the current format start with exactly these bytes. */
  activeKeyHeader(): Uint8Array {
    return envelopeHeader(this.#ring.activeKeyId);
  }

  encrypt(plaintext: Uint8Array | string, context: EncryptionContext): Uint8Array {
    const keyId = this.#ring.activeKeyId;
    const kek = this.#kek(keyId);
    if (kek === undefined) throw new Error('active key missing from key ring');
    const header = envelopeHeader(keyId);
    const contextBytes = encodeEncryptionContext(context);
    const dataKey = randomBytes(DATA_KEY_BYTES);
    try {
      const wrapped = seal(kek, dataKey, concatBytes([header, PURPOSE_WRAP, contextBytes]));
      const data = seal(
        dataKey,
        typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext,
        concatBytes([header, PURPOSE_DATA, contextBytes]),
      );
      return concatBytes([
        header,
        wrapped.iv,
        wrapped.tag,
        wrapped.ciphertext,
        data.iv,
        data.tag,
        data.ciphertext,
      ]);
    } finally {
      dataKey.fill(0);
    }
  }

  decrypt(ciphertext: Uint8Array, context: EncryptionContext): DecryptResult {
    const parts = parseEnvelope(ciphertext);
    if (parts === undefined) return { ok: false, reason: 'malformed' };
    const kek = this.#kek(parts.keyId);
    if (kek === undefined) return { ok: false, reason: 'unknown_key' };
    const contextBytes = encodeEncryptionContext(context);
    const dataKey = open(
      kek,
      parts.wrappedKeyIv,
      parts.wrappedKeyTag,
      parts.wrappedKey,
      concatBytes([parts.header, PURPOSE_WRAP, contextBytes]),
    );
    if (dataKey === undefined) return { ok: false, reason: 'authentication_failed' };
    try {
      const plaintext = open(
        dataKey,
        parts.dataIv,
        parts.dataTag,
        parts.data,
        concatBytes([parts.header, PURPOSE_DATA, contextBytes]),
      );
      return plaintext === undefined
        ? { ok: false, reason: 'authentication_failed' }
        : { ok: true, plaintext };
    } finally {
      dataKey.fill(0);
    }
  }

  /** The key id a ciphertext was wrapped with, or `undefined` if it is not a well-formed envelope. */
  keyIdOf(ciphertext: Uint8Array): string | undefined {
    return keyIdOf(ciphertext);
  }

  /**
   * Decrypts and encrypts again under the active key with a FRESH data key (not just re-wrapping the old data
   * key): after rotation, someone who obtained the retired key and old ciphertexts (backups) learns nothing
   * about current values. The cost (one extra AES pass over small values) is irrelevant at our sizes.
   */
  reencrypt(ciphertext: Uint8Array, context: EncryptionContext): ReencryptResult {
    const opened = this.decrypt(ciphertext, context);
    if (!opened.ok) return opened;
    try {
      return { ok: true, ciphertext: this.encrypt(opened.plaintext, context) };
    } finally {
      opened.plaintext.fill(0);
    }
  }

  /** A per-tenant key derived from this cipher's ring (see {@link deriveTenantKey}); the active key by default. */
  deriveTenantKey(purpose: TenantKeyPurpose, tenantId: string, keyId?: string): TenantKeyResult {
    return deriveTenantKey(this.#ring, { purpose, tenantId, keyId });
  }

  #kek(keyId: string): KeyObject | undefined {
    return keyEncryptionKeyFor(this.#ring, keyId);
  }

  toJSON(): { activeKeyId: string } {
    return { activeKeyId: this.activeKeyId };
  }

  toString(): string {
    return `EnvelopeCipher(active=${this.activeKeyId})`;
  }

  [inspect.custom](): string {
    return this.toString();
  }
}

type Sealed = { iv: Uint8Array; tag: Uint8Array; ciphertext: Uint8Array };

function seal(key: KeyObject | Uint8Array, plaintext: Uint8Array, aad: Uint8Array): Sealed {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { iv, tag: cipher.getAuthTag(), ciphertext };
}

/** `undefined` when authentication fails; never throws for bad input, never says why beyond that. */
function open(
  key: KeyObject | Uint8Array,
  iv: Uint8Array,
  tag: Uint8Array,
  ciphertext: Uint8Array,
  aad: Uint8Array,
): Buffer | undefined {
  const decipher = createDecipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(aad);
  decipher.setAuthTag(tag);
  // GCM releases plaintext before the tag is checked: keep it only if final() authenticates, else wipe it.
  const unverified = decipher.update(ciphertext);
  try {
    return Buffer.concat([unverified, decipher.final()]);
  } catch {
    return undefined;
  } finally {
    unverified.fill(0);
  }
}
