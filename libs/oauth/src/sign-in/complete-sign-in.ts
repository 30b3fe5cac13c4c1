// Accepts a sign-in's redirect once (caught on the API's callback or pasted by the user): its state taken
// from the store (single use, whoever presents it), checked to be unexpired and bound to the same tenant,
// user and session; the redirect checked to be its own redirect URI; RFC 9207's `iss` compared exactly with
// the recorded issuer before the code is redeemed (and required when the server advertises it); then the code
// redeemed with its PKCE verifier and the resource indicator, at the token endpoint recorded at the start.
import type { PinnedFetch } from '@gatehouse/egress';
import type { CredentialKey } from '../refresh/credential-key';
import type { RegisteredClient } from '../tokens/client-authentication';
import { requestTokenGrant } from '../tokens/token-grant';
import type { OAuthTokens, TokenErrorCode } from '../tokens/token-set';
import type { SignInBinding, SignInStateRecord, SignInStateStore } from './sign-in-state.port';
import { signInStateId } from './start-sign-in';

export type CompleteSignInRefusal =
  | 'invalid_redirect'
  | 'state_missing'
  /** Never issued, already used (a replay), or gone from the store. */
  | 'state_unknown'
  | 'state_expired'
  /** Started by another session, user or tenant. */
  | 'state_binding_mismatch'
  /** Not the redirect URI this sign-in was started with. */
  | 'redirect_uri_mismatch'
  /** The authorization server answered with an error (the user declined, or it refused). */
  | 'authorization_denied'
  /** `iss` differs from the recorded issuer (character for character). */
  | 'iss_mismatch'
  /** The server advertises `iss` in authorization responses and this one has none. */
  | 'iss_missing'
  | 'code_missing'
  /** The registration at hand is not the one this sign-in was started with. */
  | 'client_mismatch'
  | 'code_refused'
  | 'token_endpoint_unreachable'
  | 'invalid_token_response';

export interface SignedIn {
  readonly key: CredentialKey;
  readonly tokens: OAuthTokens;
  /** Where refreshes go: the endpoint these tokens came from, never rediscovered. */
  readonly tokenEndpoint: string;
  readonly revocationEndpoint: string | null;
  readonly clientId: string;
}

export type CompleteSignInResult =
  | { readonly ok: true; readonly signedIn: SignedIn }
  | { readonly ok: false; readonly reason: CompleteSignInRefusal; readonly error?: TokenErrorCode | null };

export interface CompleteSignInInput {
  /** The whole redirect URL, as received or pasted. */
  readonly redirect: string;
  /** Who presents it now. */
  readonly binding: SignInBinding;
}

export interface CompleteSignInDependencies {
  readonly fetch: PinnedFetch;
  readonly stateStore: SignInStateStore;
  /** The registration for the recorded issuer (resolved again: its secret never sits in the state store). */
  readonly clientFor: (issuer: string, clientId: string) => Promise<RegisteredClient | null>;
  readonly now: () => number;
  readonly signal?: AbortSignal;
}

const refuse = (reason: CompleteSignInRefusal): CompleteSignInResult => ({ ok: false, reason });

function sameBinding(a: SignInBinding, b: SignInBinding): boolean {
  return a.tenantId === b.tenantId && a.userId === b.userId && a.sessionId === b.sessionId;
}

function withoutQuery(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

function parse(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

function checkRedirect(redirect: URL, record: SignInStateRecord): CompleteSignInRefusal | null {
  const expected = parse(record.redirectUri);
  if (!expected || withoutQuery(expected) !== withoutQuery(redirect)) return 'redirect_uri_mismatch';
  const params = redirect.searchParams;
  if (params.getAll('state').length !== 1) return 'invalid_redirect';
  if (params.has('error')) return 'authorization_denied';
  const iss = params.getAll('iss');
  if (iss.length > 1) return 'invalid_redirect';
  if (iss.length === 1) {
    if (iss[0] !== record.issuer) return 'iss_mismatch';
  } else if (record.issParameterSupported) {
    return 'iss_missing';
  }
  const code = params.getAll('code');
  if (code.length !== 1 || code[0] === '') return 'code_missing';
  return null;
}

export async function completeSignIn(
  input: CompleteSignInInput,
  deps: CompleteSignInDependencies,
): Promise<CompleteSignInResult> {
  const redirect = parse(input.redirect);
  if (!redirect) return refuse('invalid_redirect');
  const state = redirect.searchParams.get('state');
  if (state === null || state === '') return refuse('state_missing');
  // Taken before anything else is checked: whatever follows, this state is spent.
  const record = await deps.stateStore.take(signInStateId(state));
  if (!record) return refuse('state_unknown');
  if (deps.now() >= record.expiresAt) return refuse('state_expired');
  if (!sameBinding(record.binding, input.binding)) return refuse('state_binding_mismatch');
  const redirectRefusal = checkRedirect(redirect, record);
  if (redirectRefusal) return refuse(redirectRefusal);

  const client = await deps.clientFor(record.issuer, record.clientId);
  if (!client || client.issuer !== record.issuer || client.clientId !== record.clientId)
    return refuse('client_mismatch');
  const grant = await requestTokenGrant(deps.fetch, {
    tokenEndpoint: record.tokenEndpoint,
    client,
    resource: record.resource,
    grant: {
      grantType: 'authorization_code',
      code: redirect.searchParams.get('code') ?? '',
      redirectUri: record.redirectUri,
      codeVerifier: record.codeVerifier,
    },
    now: deps.now,
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
  if (!grant.ok) {
    switch (grant.reason) {
      case 'grant_refused':
        return { ok: false, reason: 'code_refused', error: grant.error };
      case 'token_endpoint_unreachable':
        return refuse('token_endpoint_unreachable');
      case 'invalid_token_response':
        return refuse('invalid_token_response');
    }
  }
  return {
    ok: true,
    signedIn: {
      key: {
        tenantId: record.binding.tenantId,
        subject: record.subject,
        serverIdentity: record.serverIdentity,
        resource: record.resource,
        issuer: record.issuer,
      },
      tokens: grant.tokens,
      tokenEndpoint: record.tokenEndpoint,
      revocationEndpoint: record.revocationEndpoint,
      clientId: record.clientId,
    },
  };
}
