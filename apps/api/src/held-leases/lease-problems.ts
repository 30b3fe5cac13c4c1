import { ProblemWithMembersError } from '../shared/problem-with-members';

// The typed refusals of the lease commands, one factory each (the view's own refusal, server_not_leasable, is in
// effective-view/view-problems.ts). Extra fields are enum values and ids (activation states and reasons, an
// approval request's id, a refusal class): never a definition value, a URL or an argv.

/** Activation does not approve the server for this view now; where a person must look, a request is open. */
export function notApproved(state: {
  activationState: string;
  reasons: readonly string[];
  approvalRequestId: string | null;
}): ProblemWithMembersError {
  return new ProblemWithMembersError(
    {
      status: 403,
      code: 'not_approved',
      title: 'Not approved',
      detail:
        state.approvalRequestId === null
          ? 'This server is not approved for this workspace and principal.'
          : 'This server is not approved for this workspace and principal; an approval request is open.',
    },
    {
      activationState: state.activationState,
      reasons: [...state.reasons],
      approvalRequestId: state.approvalRequestId,
    },
  );
}

/** URL admission refused the destination on the asking pool: one class for the holder, the cause is logged. */
export function destinationRefused(pool: string): ProblemWithMembersError {
  return new ProblemWithMembersError(
    {
      status: 403,
      code: 'destination_refused',
      title: 'Destination refused',
      detail: "The server's destination is not admitted on this pool.",
    },
    { pool },
  );
}

/**
 * The pool's stdio authority (HostPolicy within the operator's ceiling) does not allow this process. With
 * `env_key_not_allowed`, `key` names the env variable refused (a name, never its value).
 */
export function stdioRefused(
  pool: string,
  reason: string,
  key: string | null = null,
): ProblemWithMembersError {
  return new ProblemWithMembersError(
    {
      status: 403,
      code: 'stdio_refused',
      title: 'Stdio refused',
      detail:
        key === null
          ? 'This pool may not start this stdio server.'
          : `This pool may not start this stdio server: it may not set the environment variable ${key}.`,
    },
    key === null ? { pool, reason } : { pool, reason, key },
  );
}

export function headerHelperRefused(pool: string, reason: string): ProblemWithMembersError {
  return new ProblemWithMembersError(
    {
      status: 403,
      code: 'header_helper_refused',
      title: 'Header helper refused',
      detail: "This pool may not run this server's header helper.",
    },
    { pool, reason },
  );
}

/**
 * The server declares OAuth and neither the principal's own credential nor (where the definition allows shared
 * use) the workspace's service credential can serve it: refused by name, never connected without it. The server
 * stays listed; a person signs in (the Connections page, `oauth.signIn.start`).
 */
export function needsSignIn(principal: 'user' | 'workspace'): ProblemWithMembersError {
  return new ProblemWithMembersError(
    {
      status: 409,
      code: 'needs_sign_in',
      title: 'Needs sign-in',
      detail:
        principal === 'user'
          ? 'This server declares OAuth and this principal is not signed in to it.'
          : 'This server declares OAuth and the workspace has no service credential for it.',
    },
    { authentication: 'oauth', credentialState: 'needs_sign_in' },
  );
}

/** The access token had to be refreshed and no refresh could be made now (another holder, the issuer down). */
export function oauthRefreshUnavailable(): ProblemWithMembersError {
  return new ProblemWithMembersError(
    {
      status: 503,
      code: 'oauth_refresh_unavailable',
      title: 'Refresh unavailable',
      detail: "This server's access token could not be refreshed now; ask again shortly.",
    },
    { authentication: 'oauth' },
  );
}

/** Renewing a lease that was released, revoked or has expired: the holder must ask for a new one. */
export function leaseEnded(
  state: 'released' | 'revoked' | 'expired',
  reason: string | null,
): ProblemWithMembersError {
  return new ProblemWithMembersError(
    {
      status: 409,
      code: 'lease_ended',
      title: 'Lease ended',
      detail: `This lease was ${state}; ask for a new lease.`,
    },
    { leaseState: state, reason },
  );
}
