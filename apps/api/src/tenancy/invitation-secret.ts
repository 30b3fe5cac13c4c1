import { randomBase62, sha256 } from '../auth/opaque-secret';

// `ghi_<43 base62>`: readable as ours at a glance, 256 random bits. Only the sha256 is stored (a random secret
// this long needs no salt), like API tokens; the secret itself goes back once, to the inviter.

export interface MintedInvitationSecret {
  /** Shown once to the inviter, never stored or logged. */
  readonly secret: string;
  readonly secretHash: Buffer<ArrayBuffer>;
}

export function mintInvitationSecret(): MintedInvitationSecret {
  const secret = `ghi_${randomBase62(43)}`;
  return { secret, secretHash: sha256(secret) };
}

export function invitationSecretHash(secret: string): Buffer<ArrayBuffer> {
  return sha256(secret);
}
