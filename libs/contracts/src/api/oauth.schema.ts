import { z } from 'zod';
import { isoDateTime, page, uuid } from './common.schema';

// The answers of the upstream OAuth sign-in commands (decisions 0061, 0062, 0066), declared here so the
// dashboard's Connections page parses them with the schema libs/commands declares its commands with (decision
// 0063). Nothing here ever carries a token: the state is a fixed word, the authorization URL holds only the
// public client id, the PKCE challenge and the state.

/** The word shown for a credential; never derived from a token's content. */
export const OAUTH_CREDENTIAL_STATES = ['signed_in', 'signed_out', 'needs_sign_in', 'refused'] as const;
export type OAuthCredentialState = (typeof OAUTH_CREDENTIAL_STATES)[number];

export const oauthCredentialView = z
  .object({
    id: uuid,
    workspaceId: uuid.nullable(),
    /** Whose credential: the signed-in user's own, or a workspace service credential. */
    subject: z.enum(['user', 'workspace']),
    state: z.enum(OAUTH_CREDENTIAL_STATES),
    issuer: z.string(),
    /** The server's canonical URL (the resource the tokens are for). */
    resource: z.string(),
    securityIdentity: z.string(),
    /** When the access token expires; null when unknown or there is none. */
    accessTokenExpiresAt: isoDateTime.nullable(),
    updatedAt: isoDateTime,
  })
  .meta({ title: 'OAuthCredential' });

export const oauthCredentialPage = page(oauthCredentialView).meta({ title: 'OAuthCredentialPage' });

export const oauthSignInStarted = z
  .object({ authorizationUrl: z.string(), issuer: z.string(), expiresAt: isoDateTime })
  .meta({ title: 'OAuthSignInStarted' });

export const oauthSignedOut = z
  .object({ id: uuid, state: z.literal('signed_out'), revokedAtIssuer: z.boolean() })
  .meta({ title: 'OAuthSignedOut' });
