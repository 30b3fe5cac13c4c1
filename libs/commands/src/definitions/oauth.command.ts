import {
  OAUTH_CREDENTIAL_STATES,
  oauthCredentialPage,
  oauthCredentialView,
  oauthSignInStarted,
  oauthSignedOut,
} from '@gatehouse/contracts';
import { z } from 'zod';
import { defineCommand, type CallerKind } from '../command';
import { pageInput, uuid } from '../common.schema';
import { definitionServerName } from './definition-source.command';

// Upstream OAuth sign-in (docs/decisions/0055, 0061, 0062). Only people sign in: a dashboard session
// or a user token, for themselves. None of these is offered over admin MCP (the `oauth.` prefix is never
// offered): an agent must not sign anyone in or out. Nothing here ever carries a token: the state shown is a
// fixed word, and the authorization URL holds only the public client id, the PKCE challenge and the state.

const SIGN_IN_CALLERS: readonly CallerKind[] = ['session', 'user'];

export { OAUTH_CREDENTIAL_STATES, oauthCredentialView };

export const startOAuthSignIn = defineCommand({
  name: 'oauth.signIn.start',
  summary:
    "Start signing in to a workspace server's authorization server (checked discovery, a client per issuer, " +
    'PKCE S256): open the returned URL in the browser; the redirect is accepted once, by this session',
  scope: 'definitions:write',
  kind: 'mutation',
  input: z.strictObject({ workspaceId: uuid, serverName: definitionServerName }),
  output: oauthSignInStarted,
  http: { method: 'POST', path: '/v1/workspaces/:workspaceId/oauth/sign-in', successStatus: 201 },
  graphql: { field: 'startOAuthSignIn' },
  problems: [
    'not_found',
    'server_not_leasable',
    'oauth_not_declared',
    'oauth_discovery_refused',
    'oauth_client_unavailable',
  ],
  callers: SIGN_IN_CALLERS,
});

export const completeOAuthSignIn = defineCommand({
  name: 'oauth.signIn.complete',
  summary:
    'Finish a sign-in with the redirect URL the authorization server sent the browser to (pasted once)',
  scope: 'definitions:write',
  kind: 'mutation',
  input: z.strictObject({ redirectUrl: z.string().min(1).max(8_192) }),
  output: oauthCredentialView,
  http: { method: 'POST', path: '/v1/oauth/sign-in/complete' },
  graphql: { field: 'completeOAuthSignIn' },
  // not_found: no sign-in of the caller waits for this redirect (unknown, used, expired, or another's).
  problems: ['not_found', 'sign_in_refused'],
  callers: SIGN_IN_CALLERS,
});

export const listOAuthCredentials = defineCommand({
  name: 'oauth.credentials.list',
  summary:
    'Your OAuth sign-ins in this tenant: the state word, the issuer and when the access token expires; with a ' +
    "workspace, that workspace's service credentials too (what serves you there without your own; never a token)",
  scope: 'definitions:read',
  kind: 'query',
  input: z.strictObject({ workspaceId: uuid.optional(), ...pageInput }),
  output: oauthCredentialPage,
  http: { method: 'GET', path: '/v1/oauth/credentials' },
  graphql: { field: 'oauthCredentials' },
  problems: ['not_found', 'bad_cursor'],
  callers: SIGN_IN_CALLERS,
});

export const signOutOAuth = defineCommand({
  name: 'oauth.signOut',
  summary:
    'Sign out of one credential: deleted first (with a revocation ledger event), then revoked at the issuer; ' +
    'an issuer that is down keeps nobody signed in',
  scope: 'definitions:write',
  kind: 'mutation',
  input: z.strictObject({ credentialId: uuid }),
  output: oauthSignedOut,
  http: { method: 'POST', path: '/v1/oauth/credentials/:credentialId/sign-out' },
  graphql: { field: 'signOutOAuth' },
  problems: ['not_found'],
  callers: SIGN_IN_CALLERS,
});

export const chooseOAuthServiceCredential = defineCommand({
  name: 'oauth.serviceCredential.choose',
  summary:
    "Make one of your own sign-ins the workspace's service credential for a server whose definition allows " +
    'shared use: it moves to the workspace (you are signed out of it) and replaces the one it had',
  scope: 'workspaces:write',
  kind: 'mutation',
  input: z.strictObject({ workspaceId: uuid, credentialId: uuid }),
  output: oauthCredentialView,
  http: { method: 'POST', path: '/v1/workspaces/:workspaceId/oauth/service-credential', successStatus: 201 },
  graphql: { field: 'chooseOAuthServiceCredential' },
  // not_found: no workspace, or no credential of the caller's with this id.
  problems: ['not_found', 'shared_use_not_allowed'],
  callers: SIGN_IN_CALLERS,
});

// Decision 0098: a workspace's service credentials, for owners and admins (`workspaces:write`) only, as the
// choice is; people only, never over admin MCP.

export const listOAuthServiceCredentials = defineCommand({
  name: 'oauth.serviceCredentials.list',
  summary:
    "The workspace's service credentials: the state word, the issuer, the server's identity and when the " +
    'access token expires; never a token',
  scope: 'workspaces:write',
  kind: 'query',
  input: z.strictObject({ workspaceId: uuid, ...pageInput }),
  output: oauthCredentialPage,
  http: { method: 'GET', path: '/v1/workspaces/:workspaceId/oauth/service-credentials' },
  graphql: { field: 'oauthServiceCredentials' },
  problems: ['not_found', 'bad_cursor'],
  callers: SIGN_IN_CALLERS,
});

export const signOutOAuthServiceCredential = defineCommand({
  name: 'oauth.serviceCredential.signOut',
  summary:
    'Sign the workspace out of one service credential: deleted first (its leases end through the ledger), ' +
    'then revoked at the issuer; an issuer that is down keeps nobody signed in',
  scope: 'workspaces:write',
  kind: 'mutation',
  input: z.strictObject({ workspaceId: uuid, credentialId: uuid }),
  output: oauthSignedOut,
  http: {
    method: 'POST',
    path: '/v1/workspaces/:workspaceId/oauth/service-credentials/:credentialId/sign-out',
  },
  graphql: { field: 'signOutOAuthServiceCredential' },
  // not_found: no workspace, or no service credential of this workspace with this id.
  problems: ['not_found'],
  callers: SIGN_IN_CALLERS,
});
