// RFC 7009 token revocation: one token at the issuer's revocation endpoint, with the client's authentication,
// through the pinned fetch (never a redirect followed). A typed result; nothing of the answer travels further.
// Sign-out deletes the credential before it calls this, so an issuer that is down keeps nobody signed in.
import type { PinnedFetch } from '@gatehouse/egress';
import { postForm } from '../http/oauth-http';
import { authenticateClient, type RegisteredClient } from './client-authentication';

export type TokenRevocationFailure =
  /** No answer: refused by egress, unreachable, timed out or aborted. */
  | 'revocation_endpoint_unreachable'
  /** The server answered with an error (RFC 7009 §2.2.1) or something that is not an answer. */
  | 'revocation_refused';

export type TokenRevocationResult =
  { readonly ok: true } | { readonly ok: false; readonly reason: TokenRevocationFailure };

export interface TokenRevocationRequest {
  readonly revocationEndpoint: string;
  /** A registration of the issuer the token came from. */
  readonly client: RegisteredClient;
  readonly token: string;
  readonly tokenTypeHint: 'access_token' | 'refresh_token';
  readonly signal?: AbortSignal;
}

export async function revokeToken(
  fetch: PinnedFetch,
  request: TokenRevocationRequest,
): Promise<TokenRevocationResult> {
  const form = new URLSearchParams();
  form.set('token', request.token);
  form.set('token_type_hint', request.tokenTypeHint);
  const headers = authenticateClient(request.client, form);
  const answer = await postForm(fetch, request.revocationEndpoint, form, headers, request.signal);
  if (!answer.ok)
    return {
      ok: false,
      reason: answer.reason === 'not_json' ? 'revocation_refused' : 'revocation_endpoint_unreachable',
    };
  // §2.2: 200 whether or not the token was still valid (an unknown token is revoked already).
  return answer.status === 200 ? { ok: true } : { ok: false, reason: 'revocation_refused' };
}
