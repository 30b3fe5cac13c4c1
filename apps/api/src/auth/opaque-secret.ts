import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` characters drawn uniformly from [0-9A-Za-z] (randomInt rejects biased draws). 43 chars = 256 bits. */
export function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[randomInt(62)];
  return out;
}

/** An opaque random secret for cookies and CSRF tokens: 32 bytes, base64url (no padding, cookie-safe). */
export function randomOpaqueSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored instead of a secret: secrets are random and long, so a plain sha256 is enough (no salt). */
export function sha256(secret: string): Buffer<ArrayBuffer> {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** Compares two digests in constant time (different lengths are simply unequal). */
export function digestsEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
