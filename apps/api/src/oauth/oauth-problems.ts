import { ProblemError } from '@gatehouse/platform';

// The typed refusals of the OAuth commands. The detail names a class only: never a token, a URL, or text an
// authorization server sent (that goes to the log as a reason word at most).

export class OAuthProblemError extends ProblemError {
  constructor(
    init: ConstructorParameters<typeof ProblemError>[0],
    readonly reason: string,
  ) {
    super(init);
    this.name = 'OAuthProblemError';
  }

  override toProblem(instance?: string): ReturnType<ProblemError['toProblem']> & { reason: string } {
    return { reason: this.reason, ...super.toProblem(instance) };
  }
}

/** The server resolves, but its definition declares no OAuth: there is nothing to sign in to. */
export function oauthNotDeclared(): OAuthProblemError {
  return new OAuthProblemError(
    {
      status: 409,
      code: 'oauth_not_declared',
      title: 'No OAuth',
      detail: 'This server does not declare OAuth.',
    },
    'not_declared',
  );
}

/** Discovery refused a link or a document (libs/oauth's reason word). */
export function oauthDiscoveryRefused(reason: string): OAuthProblemError {
  return new OAuthProblemError(
    {
      status: 502,
      code: 'oauth_discovery_refused',
      title: 'Authorization server not trusted',
      detail: "The server's authorization metadata did not pass Gatehouse's checks.",
    },
    reason,
  );
}

export function oauthClientUnavailable(reason: string): OAuthProblemError {
  return new OAuthProblemError(
    {
      status: 502,
      code: 'oauth_client_unavailable',
      title: 'No client registration',
      detail: 'Gatehouse has no client registration at this authorization server and could not make one.',
    },
    reason,
  );
}

/** The redirect was refused (state replayed, another session, expired, iss, a refused code...). */
export function signInRefused(reason: string): OAuthProblemError {
  return new OAuthProblemError(
    {
      status: 400,
      code: 'sign_in_refused',
      title: 'Sign-in refused',
      detail: 'This sign-in cannot be completed.',
    },
    reason,
  );
}
