import type { Invitation } from '@gatehouse/db';

export type InvitationStatus = 'pending' | 'accepted' | 'revoked' | 'expired';

/** Accepted and revoked are final; otherwise an invitation is pending until it expires. */
export function invitationStatusOf(
  row: Pick<Invitation, 'acceptedAt' | 'revokedAt' | 'expiresAt'>,
  now: Date,
): InvitationStatus {
  if (row.acceptedAt !== null) return 'accepted';
  if (row.revokedAt !== null) return 'revoked';
  return row.expiresAt.getTime() > now.getTime() ? 'pending' : 'expired';
}

/** Never the secret hash: only what `invitationView` declares. */
export function toInvitationView(row: Invitation, now: Date) {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    status: invitationStatusOf(row, now),
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdById,
    expiresAt: row.expiresAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
    revokedBy: row.revokedById,
    acceptedAt: row.acceptedAt?.toISOString() ?? null,
    acceptedBy: row.acceptedById,
  };
}

/** The Prisma filter of pending invitations at `now`. */
export function pendingAt(now: Date) {
  return { acceptedAt: null, revokedAt: null, expiresAt: { gt: now } };
}
