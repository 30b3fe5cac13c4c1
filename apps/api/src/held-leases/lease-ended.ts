import type { Lease } from '@gatehouse/db';

export type LeaseEnd = { state: 'released' | 'revoked' | 'expired'; reason: string | null };

/** How a lease ended (released, revoked or expired at `now`), or null while it is live. */
export function endedState(lease: Lease, now: Date): LeaseEnd | null {
  if (lease.releasedAt !== null) return { state: 'released', reason: null };
  if (lease.revokedAt !== null) return { state: 'revoked', reason: lease.revokedReason };
  if (lease.expiresAt.getTime() <= now.getTime()) return { state: 'expired', reason: null };
  return null;
}
