// One grant at a token endpoint: the authorization code (with its PKCE verifier) or a refresh token, always
// with the `resource` indicator. The answer is a typed result; `maybeSent` tells whether the request may have
// reached the server (a refresh token that may have been spent must never be sent again).
import type { EgressFailureReason, PinnedFetch } from '@gatehouse/egress';
import { postForm } from '../http/oauth-http';
import { authenticateClient, type RegisteredClient } from './client-authentication';
import {
  tokenErrorCode,
  tokenErrorSchema,
  tokenResponseSchema,
  type OAuthTokens,
  type TokenErrorCode,
} from './token-set';

export type TokenGrant =
  | {
      readonly grantType: 'authorization_code';
      readonly code: string;
      readonly redirectUri: string;
      readonly codeVerifier: string;
    }
  | { readonly grantType: 'refresh_token'; readonly refreshToken: string };

export type TokenGrantFailure =
  /** The server answered with an OAuth error (invalid_grant: the code or refresh token is no good). */
  | 'grant_refused'
  /** The server answered with something that is not a token response. */
  | 'invalid_token_response'
  /** No answer: refused by egress, unreachable, timed out or aborted. */
  | 'token_endpoint_unreachable';

export type TokenGrantResult =
  | { readonly ok: true; readonly tokens: OAuthTokens }
  | {
      readonly ok: false;
      readonly reason: TokenGrantFailure;
      readonly error: TokenErrorCode | null;
      /** False only when the request certainly never left (refused at admission). */
      readonly maybeSent: boolean;
    };

export interface TokenGrantRequest {
  readonly tokenEndpoint: string;
  readonly client: RegisteredClient;
  readonly resource: string;
  readonly grant: TokenGrant;
  /** The grant's deadline and any other reason to stop (a lost lock). */
  readonly signal?: AbortSignal;
  /** Epoch ms now, for expires_in. */
  readonly now: () => number;
}

// Refused before any connection was made: the request never left.
const NOT_SENT: ReadonlySet<EgressFailureReason> = new Set<EgressFailureReason>([
  'invalid_url',
  'invalid_port',
  'unsupported_scheme',
  'credentials_in_url',
  'insecure_scheme',
  'metadata_destination',
  'operator_denied',
  'loopback_destination',
  'reserved_destination',
  'private_destination',
  'unresolvable',
]);

export async function requestTokenGrant(
  fetch: PinnedFetch,
  request: TokenGrantRequest,
): Promise<TokenGrantResult> {
  const form = new URLSearchParams();
  const { grant } = request;
  switch (grant.grantType) {
    case 'authorization_code':
      form.set('grant_type', 'authorization_code');
      form.set('code', grant.code);
      form.set('redirect_uri', grant.redirectUri);
      form.set('code_verifier', grant.codeVerifier);
      break;
    case 'refresh_token':
      form.set('grant_type', 'refresh_token');
      form.set('refresh_token', grant.refreshToken);
      break;
  }
  form.set('resource', request.resource);
  const headers = authenticateClient(request.client, form);
  const answer = await postForm(fetch, request.tokenEndpoint, form, headers, request.signal);
  if (!answer.ok) {
    if (answer.reason === 'not_json')
      return { ok: false, reason: 'invalid_token_response', error: null, maybeSent: true };
    const maybeSent = answer.egressReason === null || !NOT_SENT.has(answer.egressReason);
    return { ok: false, reason: 'token_endpoint_unreachable', error: null, maybeSent };
  }
  if (answer.status === 200) {
    const tokens = tokenResponseSchema.safeParse(answer.body);
    if (!tokens.success) return { ok: false, reason: 'invalid_token_response', error: null, maybeSent: true };
    const { data } = tokens;
    return {
      ok: true,
      tokens: {
        accessToken: data.access_token,
        refreshToken: data.refresh_token ?? null,
        expiresAt: data.expires_in === undefined ? null : request.now() + data.expires_in * 1000,
        scope: data.scope ?? null,
      },
    };
  }
  const error = tokenErrorSchema.safeParse(answer.body);
  if (answer.status >= 400 && answer.status < 500 && error.success)
    return { ok: false, reason: 'grant_refused', error: tokenErrorCode(error.data.error), maybeSent: true };
  return { ok: false, reason: 'invalid_token_response', error: null, maybeSent: true };
}
