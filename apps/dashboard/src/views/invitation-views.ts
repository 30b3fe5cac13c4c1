// The invitation shapes the dashboard reads from the API (declared in libs/commands' invitation.commands.ts
// and the API's invitation link routes); only the fields it renders.

export interface InvitationView {
  readonly id: string;
  readonly email: string;
  readonly role: string;
  readonly status: 'pending' | 'accepted' | 'revoked' | 'expired';
  readonly createdAt: string;
  readonly expiresAt: string;
}

export interface CreatedInvitationView {
  readonly invitation: InvitationView;
  /** Shown once, in the link the inviter sends; the API keeps only its hash. */
  readonly secret: string;
}

/** What the link's holder may see before accepting: only what the inviter wrote. */
export interface InvitationPreviewView {
  readonly tenant: { readonly slug: string; readonly name: string };
  readonly email: string;
  readonly role: string;
  readonly expiresAt: string;
}

export interface JoinedTenantView {
  readonly tenant: { readonly slug: string; readonly name: string };
  readonly role: string;
}
