import type { TokenKind } from '@gatehouse/commands';
import { randomBase62, sha256 } from './opaque-secret';

// `gh<kind letter>_<43 base62 chars>`: the kind is readable at a glance (and by secret scanners), the random
// part carries 256 bits. Only the sha256 is stored; `prefix` (the first 10 characters) is what lists show.

export const TOKEN_KIND_LETTER: Readonly<Record<TokenKind, string>> = Object.freeze({
  user: 'u',
  agent: 'a',
  worker: 'w',
  gateway: 'g',
});

export const TOKEN_RANDOM_LENGTH = 43;
export const TOKEN_PREFIX_LENGTH = 10;

const TOKEN_SHAPE = /^gh[uawg]_[0-9A-Za-z]{43}$/;

export interface MintedTokenSecret {
  /** Shown once to the creator, never stored or logged. */
  readonly secret: string;
  readonly secretHash: Buffer<ArrayBuffer>;
  readonly prefix: string;
}

export function mintTokenSecret(kind: TokenKind): MintedTokenSecret {
  const secret = `gh${TOKEN_KIND_LETTER[kind]}_${randomBase62(TOKEN_RANDOM_LENGTH)}`;
  return { secret, secretHash: sha256(secret), prefix: secret.slice(0, TOKEN_PREFIX_LENGTH) };
}

/** Cheap shape check before any database lookup: anything else cannot be a token of ours. */
export function looksLikeApiToken(candidate: string): boolean {
  return TOKEN_SHAPE.test(candidate);
}

/**
 * The credential of `Authorization: Bearer <token>` (scheme case-insensitive, RFC 7235), `undefined` when the
 * header is absent, `null` when it is present but not a bearer credential of our shape.
 */
export function bearerTokenOf(authorization: string | undefined): string | null | undefined {
  if (authorization === undefined) return undefined;
  const match = /^Bearer +(\S+) *$/i.exec(authorization);
  const token = match?.[1];
  return token !== undefined && looksLikeApiToken(token) ? token : null;
}
