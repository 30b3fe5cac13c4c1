import type { ApiProblem } from '@/server/api-problem';
import { Callout, ProblemCallout } from '@/ui/feedback';
import type { OAuthCredentialView } from '@/views/catalog-views';

// What the Connections page announces after a sign-in, a share or a sign-out sent the browser back to it.
export function ConnectionNotices({
  justSignedIn,
  signInError,
  justShared,
  signedOut,
}: {
  justSignedIn: OAuthCredentialView | undefined;
  signInError: ApiProblem | null;
  justShared: boolean;
  signedOut: string | undefined;
}) {
  return (
    <>
      {justSignedIn ? (
        <Callout tone="success" title="Signed in" live>
          <p>
            Signed in at {justSignedIn.issuer} for {justSignedIn.resource}.
          </p>
        </Callout>
      ) : null}
      {signInError ? <ProblemCallout problem={signInError} /> : null}
      {justShared ? (
        <Callout tone="success" title="Shared with the workspace" live>
          <p>
            Your sign-in is now the workspace’s service credential for that server: it serves everyone without
            a sign-in of their own. It moved, so you are signed out of it yourself.
          </p>
        </Callout>
      ) : null}
      {signedOut === 'revoked' || signedOut === 'deleted' ? (
        <Callout tone="success" title="Signed out" live>
          <p>
            {signedOut === 'revoked'
              ? 'Signed out. The authorization server revoked the tokens too.'
              : 'Signed out. The tokens are deleted here; the authorization server could not be asked to revoke them.'}
          </p>
        </Callout>
      ) : null}
    </>
  );
}
