/** How long a lease holds before it must be renewed: short, so a missed revocation event costs minutes at most. */
export const LEASE_TTL_MS = 5 * 60_000;

/**
 * When a lease issued or renewed at `now` ends: the earliest of the TTL and the approval's expiry. (The access
 * token's expiry joins this once OAuth exists; a definition asking for OAuth is refused until then.)
 */
export function leaseExpiryOf(now: Date, approvalExpiresAt: Date | null): Date {
  const ttl = now.getTime() + LEASE_TTL_MS;
  return new Date(approvalExpiresAt === null ? ttl : Math.min(ttl, approvalExpiresAt.getTime()));
}
