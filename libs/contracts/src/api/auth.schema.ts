import { z } from 'zod';
import { membershipRole, scope } from './access.schema';
import { isoDateTime, uuid } from './common.schema';
import { invitationSecret } from './invitation.schema';

// The dashboard's sign-in routes (`/v1/auth/*`): plain routes of the API, not admin commands, answered with these
// shapes. The session's CSRF token is in the sign-in answer; the session secret only in its cookie.

const sessionUser = z
  .object({ id: uuid, email: z.string(), displayName: z.string() })
  .meta({ title: 'SessionUser' });
const sessionTenant = z
  .object({ id: uuid, slug: z.string(), name: z.string() })
  .meta({ title: 'SessionTenant' });

/** `GET /v1/auth/session`: who is signed in, where, and with which scopes. */
export const sessionView = z
  .object({
    user: sessionUser,
    tenant: sessionTenant,
    role: membershipRole.nullable(),
    scopes: z.array(scope),
    expiresAt: isoDateTime,
  })
  .meta({ title: 'Session' });

/** `POST /v1/auth/login` and `POST /v1/auth/invitations/accept`'s sign-in: the session's CSRF token. */
export const signInView = z
  .object({
    user: sessionUser,
    tenant: sessionTenant,
    role: membershipRole,
    csrfToken: z.string().min(1),
    expiresAt: isoDateTime,
  })
  .meta({ title: 'SignIn' });

/** `POST /v1/auth/invitations/preview`: only what the inviter wrote. */
export const invitationPreviewView = z
  .object({
    tenant: z.object({ slug: z.string(), name: z.string() }),
    email: z.string(),
    role: membershipRole,
    expiresAt: isoDateTime,
  })
  .meta({ title: 'InvitationPreview' });

/** `POST /v1/auth/invitations/accept`: the tenant joined, for the invited address. */
export const invitationLinkAcceptedView = z
  .object({
    tenant: z.object({ id: uuid, slug: z.string(), name: z.string() }),
    email: z.string(),
    role: membershipRole,
    joinedAt: isoDateTime,
  })
  .meta({ title: 'InvitationLinkAccepted' });

export const invitationPreviewInput = z.strictObject({ secret: invitationSecret });
