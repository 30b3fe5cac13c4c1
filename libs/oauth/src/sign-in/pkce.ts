// PKCE with S256 only (RFC 7636): a 256-bit verifier, its SHA-256 as the challenge. `plain` is never sent.
import { createHash, randomBytes } from 'node:crypto';

export interface PkcePair {
  readonly verifier: string;
  readonly challenge: string;
  readonly method: 'S256';
}

export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

export function createPkcePair(): PkcePair {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: s256Challenge(verifier), method: 'S256' };
}

/** An unguessable `state` value (256 bits). */
export function createStateValue(): string {
  return randomBytes(32).toString('base64url');
}
