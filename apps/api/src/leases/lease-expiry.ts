/** How long a lease holds before it must be renewed: short, so a missed revocation event costs minutes at most. */
export const LEASE_TTL_MS = 5 * 60_000;

/**
 * When a lease issued or renewed at `now` ends: the earliest of the TTL, the approval's expiry and, for a server
 * that declares OAuth, the expiry of the access token it carries (epoch ms; null: the issuer gave none).
 */
export function leaseExpiryOf(
  now: Date,
  approvalExpiresAt: Date | null,
  accessTokenExpiresAt: number | null = null,
): Date {
  let end = now.getTime() + LEASE_TTL_MS;
  if (approvalExpiresAt !== null) end = Math.min(end, approvalExpiresAt.getTime());
  if (accessTokenExpiresAt !== null) end = Math.min(end, accessTokenExpiresAt);
  return new Date(end);
}
