// Starts an authorization-code sign-in: PKCE S256, the resource indicator, a fresh single-use state bound to
// the session, user and tenant that asked, saved before the URL is handed out.
import { createHash } from 'node:crypto';
import type { DiscoveredAuthorization } from '../discovery/authorization-discovery';
import type { CredentialSubject } from '../refresh/credential-key';
import type { RegisteredClient } from '../tokens/client-authentication';
import { createPkcePair, createStateValue } from './pkce';
import type { SignInBinding, SignInStateStore } from './sign-in-state.port';

export const DEFAULT_SIGN_IN_STATE_TTL_MS = 10 * 60_000;

export interface StartSignInInput {
  readonly discovered: DiscoveredAuthorization;
  readonly client: RegisteredClient;
  readonly binding: SignInBinding;
  readonly subject: CredentialSubject;
  readonly serverIdentity: string;
  /** Gatehouse's own callback (or the loopback/paste URI registered for the client). */
  readonly redirectUri: string;
  readonly scope?: string;
}

export interface StartSignInDependencies {
  readonly stateStore: SignInStateStore;
  /** Epoch ms. */
  readonly now: () => number;
  readonly stateTtlMs?: number;
}

export type StartSignInResult =
  | { readonly ok: true; readonly authorizationUrl: string; readonly expiresAt: number }
  /** The registration belongs to another issuer than the one discovered: never reused across issuers. */
  | { readonly ok: false; readonly reason: 'client_issuer_mismatch' };

/** The key a state is stored under: its digest, so the store never holds the value an attacker would need. */
export function signInStateId(state: string): string {
  return createHash('sha256').update(state, 'utf8').digest('base64url');
}

export async function startSignIn(
  input: StartSignInInput,
  deps: StartSignInDependencies,
): Promise<StartSignInResult> {
  const { discovered, client } = input;
  if (client.issuer !== discovered.issuer) return { ok: false, reason: 'client_issuer_mismatch' };
  const ttlMs = deps.stateTtlMs ?? DEFAULT_SIGN_IN_STATE_TTL_MS;
  const pkce = createPkcePair();
  const state = createStateValue();
  const expiresAt = deps.now() + ttlMs;
  await deps.stateStore.save(
    signInStateId(state),
    {
      binding: input.binding,
      subject: input.subject,
      serverIdentity: input.serverIdentity,
      resource: discovered.resource,
      issuer: discovered.issuer,
      issParameterSupported: discovered.issParameterSupported,
      tokenEndpoint: discovered.tokenEndpoint,
      revocationEndpoint: discovered.revocationEndpoint,
      clientId: client.clientId,
      tokenEndpointAuthMethod: client.tokenEndpointAuthMethod,
      redirectUri: input.redirectUri,
      codeVerifier: pkce.verifier,
      expiresAt,
    },
    // The store's own expiry is a backstop a little after the record's; the record's expiresAt decides.
    ttlMs + 1_000,
  );
  const url = new URL(discovered.authorizationEndpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', client.clientId);
  url.searchParams.set('redirect_uri', input.redirectUri);
  url.searchParams.set('code_challenge', pkce.challenge);
  url.searchParams.set('code_challenge_method', pkce.method);
  url.searchParams.set('state', state);
  url.searchParams.set('resource', discovered.resource);
  if (input.scope !== undefined && input.scope !== '') url.searchParams.set('scope', input.scope);
  return { ok: true, authorizationUrl: url.href, expiresAt };
}
