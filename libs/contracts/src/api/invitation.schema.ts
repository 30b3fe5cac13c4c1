import { z } from 'zod';
import { membershipRole } from './access.schema';
import { isoDateTime, page, pageInput, uuid } from './common.schema';

// Invitations replace "add a member by email" (docs/decisions/0030-invitations.md): the
// inviter learns nothing about accounts (the answer is the same whether or not the email has one), and only
// the invited person, signed in as that email or creating the account through the link, becomes a member.

/** `ghi_` and 43 base62 characters (256 bits). Shown once to the inviter; only its sha256 is stored. */
export const INVITATION_SECRET_PATTERN = /^ghi_[0-9A-Za-z]{43}$/;
export const invitationSecret = z.string().regex(INVITATION_SECRET_PATTERN, 'an invitation secret (ghi_…)');

export const INVITATION_STATUSES = ['pending', 'accepted', 'revoked', 'expired'] as const;

/** Invitations last a week unless the inviter says otherwise; at most 30 days. */
export const INVITATION_DEFAULT_HOURS = 168;
export const INVITATION_MAX_HOURS = 720;

export const invitationView = z
  .object({
    id: uuid,
    email: z.string(),
    role: membershipRole,
    status: z.enum(INVITATION_STATUSES),
    createdAt: isoDateTime,
    createdBy: uuid.nullable(),
    expiresAt: isoDateTime,
    revokedAt: isoDateTime.nullable(),
    revokedBy: uuid.nullable(),
    acceptedAt: isoDateTime.nullable(),
    acceptedBy: uuid.nullable(),
  })
  .meta({ title: 'Invitation' });
export const invitationPage = page(invitationView).meta({ title: 'InvitationPage' });
export const createdInvitation = z
  .object({ invitation: invitationView, secret: invitationSecret })
  .meta({ title: 'CreatedInvitation' });
export const acceptedInvitation = z
  .object({
    tenant: z.object({ id: uuid, slug: z.string(), name: z.string() }).meta({ title: 'InvitingTenant' }),
    role: membershipRole,
    joinedAt: isoDateTime,
  })
  .meta({ title: 'AcceptedInvitation' });

export const createInvitationInput = z.strictObject({
  email: z.email().max(254),
  role: membershipRole,
  expiresInHours: z.number().int().min(1).max(INVITATION_MAX_HOURS).default(INVITATION_DEFAULT_HOURS),
});
export const listInvitationsInput = z.strictObject({
  ...pageInput,
  status: z.enum(['pending', 'all']).default('pending'),
});
export const revokeInvitationInput = z.strictObject({ invitationId: uuid });
export const acceptInvitationInput = z.strictObject({ secret: invitationSecret });
