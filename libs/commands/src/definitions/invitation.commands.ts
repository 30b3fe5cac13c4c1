import { z } from 'zod';
import { defineCommand } from '../command';
import { isoDateTime, page, pageInput, uuid } from '../common.schemas';
import { membershipRole } from './member.commands';

// Invitations replace "add a member by email" (issue 11, item 15; docs/decisions/0030-invitations.md): the
// inviter learns nothing about accounts (the answer is the same whether or not the email has one), and only the
// invited person, signed in as that email or creating the account through the link, becomes a member.

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

export const createInvitation = defineCommand({
  name: 'invitations.create',
  summary:
    'Invite an email address with a role (only owners invite owners). The same answer whether or not the ' +
    'address has an account; the secret of the link is returned once',
  scope: 'members:write',
  kind: 'mutation',
  input: z.strictObject({
    email: z.email().max(254),
    role: membershipRole,
    expiresInHours: z.number().int().min(1).max(INVITATION_MAX_HOURS).default(INVITATION_DEFAULT_HOURS),
  }),
  output: z
    .object({ invitation: invitationView, secret: invitationSecret })
    .meta({ title: 'CreatedInvitation' }),
  http: { method: 'POST', path: '/v1/invitations', successStatus: 201 },
  graphql: { field: 'createInvitation' },
  problems: ['forbidden'],
  revealsSecret: true,
});

export const listInvitations = defineCommand({
  name: 'invitations.list',
  summary: 'Invitations of the tenant, newest first: pending ones by default, or all of them',
  scope: 'members:read',
  kind: 'query',
  input: z.strictObject({ ...pageInput, status: z.enum(['pending', 'all']).default('pending') }),
  output: page(invitationView).meta({ title: 'InvitationPage' }),
  http: { method: 'GET', path: '/v1/invitations' },
  graphql: { field: 'invitations' },
  problems: ['bad_cursor'],
});

export const revokeInvitation = defineCommand({
  name: 'invitations.revoke',
  summary: 'Revoke a pending invitation: its link stops working at once',
  scope: 'members:write',
  kind: 'mutation',
  input: z.strictObject({ invitationId: uuid }),
  output: invitationView,
  http: { method: 'DELETE', path: '/v1/invitations/:invitationId' },
  graphql: { field: 'revokeInvitation' },
  problems: ['not_found'],
});

export const acceptInvitation = defineCommand({
  name: 'invitations.accept',
  summary:
    'Accept an invitation as the signed-in person: their account email must be the invited one. Makes them a ' +
    'member of the inviting tenant with the invited role',
  scope: 'tenant:read',
  kind: 'mutation',
  input: z.strictObject({ secret: invitationSecret }),
  output: z
    .object({
      tenant: z.object({ id: uuid, slug: z.string(), name: z.string() }).meta({ title: 'InvitingTenant' }),
      role: membershipRole,
      joinedAt: isoDateTime,
    })
    .meta({ title: 'AcceptedInvitation' }),
  http: { method: 'POST', path: '/v1/invitations/accept', successStatus: 201 },
  graphql: { field: 'acceptInvitation' },
  problems: ['not_found', 'forbidden'],
});
