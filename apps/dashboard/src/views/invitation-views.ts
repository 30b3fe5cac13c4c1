import type {
  createdInvitation,
  invitationLinkAcceptedView,
  invitationPreviewView,
  invitationView,
  acceptedInvitation,
} from '@gatehouse/contracts';
import type { z } from 'zod';
import type { ReadView } from './api-views';

// The invitation shapes the dashboard reads from the API, as the API declares them (@gatehouse/contracts,
// decision 0063): the invitations commands and the invitation link routes.

export type InvitationView = ReadView<z.output<typeof invitationView>>;
/** The secret is shown once, in the link the inviter sends; the API keeps only its hash. */
export type CreatedInvitationView = ReadView<z.output<typeof createdInvitation>>;
/** What the link's holder may see before accepting: only what the inviter wrote. */
export type InvitationPreviewView = ReadView<z.output<typeof invitationPreviewView>>;
export type JoinedTenantView = ReadView<z.output<typeof acceptedInvitation>>;
export type InvitationLinkAcceptedView = ReadView<z.output<typeof invitationLinkAcceptedView>>;
