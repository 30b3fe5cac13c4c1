import {
  acceptedInvitation,
  acceptInvitationInput,
  createdInvitation,
  createInvitationInput,
  INVITATION_DEFAULT_HOURS,
  INVITATION_MAX_HOURS,
  INVITATION_SECRET_PATTERN,
  INVITATION_STATUSES,
  invitationPage,
  invitationSecret,
  invitationView,
  listInvitationsInput,
  revokeInvitationInput,
} from '@gatehouse/contracts';
import { defineCommand } from '../command';

// Invitations replace "add a member by email" (docs/decisions/0030-invitations.md): the
// inviter learns nothing about accounts (the answer is the same whether or not the email has one), and only
// the invited person, signed in as that email or creating the account through the link, becomes a member.

export {
  INVITATION_DEFAULT_HOURS,
  INVITATION_MAX_HOURS,
  INVITATION_SECRET_PATTERN,
  INVITATION_STATUSES,
  invitationSecret,
  invitationView,
};

export const createInvitation = defineCommand({
  name: 'invitations.create',
  summary:
    'Invite an email address with a role (only owners invite owners). The same answer whether or not the ' +
    'address has an account; the secret of the link is returned once',
  scope: 'members:write',
  kind: 'mutation',
  input: createInvitationInput,
  output: createdInvitation,
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
  input: listInvitationsInput,
  output: invitationPage,
  http: { method: 'GET', path: '/v1/invitations' },
  graphql: { field: 'invitations' },
  problems: ['bad_cursor'],
});

export const revokeInvitation = defineCommand({
  name: 'invitations.revoke',
  summary: 'Revoke a pending invitation: its link stops working at once',
  scope: 'members:write',
  kind: 'mutation',
  input: revokeInvitationInput,
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
  input: acceptInvitationInput,
  output: acceptedInvitation,
  http: { method: 'POST', path: '/v1/invitations/accept', successStatus: 201 },
  graphql: { field: 'acceptInvitation' },
  problems: ['not_found', 'forbidden'],
});
