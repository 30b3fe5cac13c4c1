import { isValidKeyId } from './key-ring';

/**
 * Binary layout of an envelope ciphertext, version 1:
 *
 *   [0]            format version (0x01)
 *   [1]            key id length n (1..64)
 *   [2 .. 2+n)     key id (ASCII)                       } the header: also bound into both AADs
 *   12 bytes       wrapped data key: GCM IV
 *   16 bytes       wrapped data key: GCM tag
 *   32 bytes       wrapped data key: ciphertext
 *   12 bytes       data: GCM IV
 *   16 bytes       data: GCM tag
 *   rest           data: ciphertext (may be empty)
 *
 * The key id sits at a fixed offset so SQL can find rows not on the active key with a prefix comparison.
 */
export const FORMAT_VERSION = 1;
export const IV_BYTES = 12;
export const TAG_BYTES = 16;
export const DATA_KEY_BYTES = 32;

export type EnvelopeParts = {
  readonly header: Uint8Array;
  readonly keyId: string;
  readonly wrappedKeyIv: Uint8Array;
  readonly wrappedKeyTag: Uint8Array;
  readonly wrappedKey: Uint8Array;
  readonly dataIv: Uint8Array;
  readonly dataTag: Uint8Array;
  readonly data: Uint8Array;
};

const BODY_MIN_BYTES = IV_BYTES + TAG_BYTES + DATA_KEY_BYTES + IV_BYTES + TAG_BYTES;

/** The header every version-1 ciphertext wrapped with `keyId` starts with. */
export function envelopeHeader(keyId: string): Uint8Array {
  if (!isValidKeyId(keyId)) throw new TypeError('invalid key id');
  const kid = Buffer.from(keyId, 'ascii');
  return Uint8Array.from([FORMAT_VERSION, kid.length, ...kid]);
}

/** Splits a ciphertext into its parts, or `undefined` if it is not a well-formed version-1 envelope. */
export function parseEnvelope(bytes: Uint8Array): EnvelopeParts | undefined {
  if (bytes.length < 2 || bytes[0] !== FORMAT_VERSION) return undefined;
  const kidLength = bytes[1] ?? 0;
  const bodyStart = 2 + kidLength;
  if (kidLength === 0 || bytes.length < bodyStart + BODY_MIN_BYTES) return undefined;
  const keyId = Buffer.from(bytes.subarray(2, bodyStart)).toString('latin1');
  if (!isValidKeyId(keyId)) return undefined;
  let offset = bodyStart;
  const take = (length: number): Uint8Array => {
    const part = bytes.subarray(offset, offset + length);
    offset += length;
    return part;
  };
  return {
    header: bytes.subarray(0, bodyStart),
    keyId,
    wrappedKeyIv: take(IV_BYTES),
    wrappedKeyTag: take(TAG_BYTES),
    wrappedKey: take(DATA_KEY_BYTES),
    dataIv: take(IV_BYTES),
    dataTag: take(TAG_BYTES),
    data: bytes.subarray(offset),
  };
}

/** The key id a ciphertext was wrapped with, or `undefined` if it is not a well-formed envelope. */
export function keyIdOf(ciphertext: Uint8Array): string | undefined {
  return parseEnvelope(ciphertext)?.keyId;
}
