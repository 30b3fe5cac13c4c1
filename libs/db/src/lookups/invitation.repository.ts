import type { Database } from '../database';
import type { MembershipRole } from '../generated/enums';

// Typed wrapper over gh_invitation_by_secret (migration 20261201120000_invitations): the one invitation read
// that happens before a tenant is known (the invitee is not a member yet). One statement through
// Database.lookup; writes then happen in the invitation's tenant through withTenantAndUser.

/** An invitation found by its secret, whatever its state: the caller refuses expired, revoked and used ones. */
export interface InvitationLookup {
  id: string;
  tenantId: string;
  tenantSlug: string;
  tenantName: string;
  /** Normalized, as users.email is. */
  email: string;
  role: MembershipRole;
  expiresAt: Date;
  revokedAt: Date | null;
  acceptedAt: Date | null;
}

interface InvitationRow {
  id: string;
  tenant_id: string;
  tenant_slug: string;
  tenant_name: string;
  email: string;
  role: MembershipRole;
  expires_at: Date;
  revoked_at: Date | null;
  accepted_at: Date | null;
}

/** An invitation by the sha256 of its secret; null when no invitation has that secret. */
export async function findInvitationBySecretHash(
  db: Database,
  secretHash: Uint8Array,
): Promise<InvitationLookup | null> {
  const rows = await db.lookup(
    (query) => query<InvitationRow>`SELECT * FROM gh_invitation_by_secret(${secretHash})`,
  );
  const r = rows[0];
  if (!r) return null;
  return {
    id: r.id,
    tenantId: r.tenant_id,
    tenantSlug: r.tenant_slug,
    tenantName: r.tenant_name,
    email: r.email,
    role: r.role,
    expiresAt: r.expires_at,
    revokedAt: r.revoked_at,
    acceptedAt: r.accepted_at,
  };
}
