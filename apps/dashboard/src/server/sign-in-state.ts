import type { OAuthCredentialState } from '@gatehouse/contracts';
import type { OAuthCredentialView } from '../views/catalog-views';
import type { EffectiveEntryView } from '../views/definition-views';

// Whether a server of a workspace can be signed in to, and how it stands, for the person looking: from the
// definition's declaration (its redacted projection says whether it uses OAuth) and the API's credentials,
// matched by the server's security identity, which is what a credential is keyed by (so a shadowing definition
// never shows another's sign-in). The words are the API's fixed ones (never derived from a token), plus
// `signed_out` for a server with no credential at all.

export type SignInWord = OAuthCredentialState;

export interface ServerSignIn {
  /** The word for the person: their own credential first, then the workspace's service credential. */
  readonly state: SignInWord;
  readonly own: OAuthCredentialView | null;
  readonly workspace: OAuthCredentialView | null;
}

export const SIGN_IN_WORDS: Readonly<Record<SignInWord, string>> = {
  signed_in: 'Signed in',
  signed_out: 'Signed out',
  needs_sign_in: 'Needs sign-in',
  refused: 'Refused',
};

/** Whether the entry's definition declares OAuth (only http servers can). */
export function declaresOAuth(entry: EffectiveEntryView): boolean {
  const transport = entry.projection?.transport;
  return transport?.kind === 'http' && transport.oauth !== null;
}

/** Null for a server that does not use OAuth (or could not be resolved to an identity). */
export function serverSignIn(
  entry: EffectiveEntryView,
  workspaceId: string,
  credentials: readonly OAuthCredentialView[],
): ServerSignIn | null {
  if (!declaresOAuth(entry) || entry.identity === null) return null;
  const key = entry.identity.key;
  const matching = credentials.filter((credential) => credential.securityIdentity === key);
  const own = matching.find((credential) => credential.subject === 'user') ?? null;
  const workspace =
    matching.find(
      (credential) => credential.subject === 'workspace' && credential.workspaceId === workspaceId,
    ) ?? null;
  const state: SignInWord =
    own?.state === 'signed_in' || workspace?.state === 'signed_in'
      ? 'signed_in'
      : (own?.state ?? workspace?.state ?? 'signed_out');
  return { state, own, workspace };
}

/**
 * The state as shown for one server: "Signed in" alone would hide that someone else's sign-in serves it (the
 * person's own may be missing or refused), so a server served only by the workspace's credential says so.
 */
export function signInLabel(signIn: ServerSignIn): string {
  const servedByWorkspace = signIn.own?.state !== 'signed_in' && signIn.workspace?.state === 'signed_in';
  return servedByWorkspace ? 'Signed in (workspace credential)' : SIGN_IN_WORDS[signIn.state];
}

/** A server that cannot run for this person until someone signs in. */
export function needsSignIn(signIn: ServerSignIn | null): boolean {
  return signIn !== null && signIn.state !== 'signed_in';
}
