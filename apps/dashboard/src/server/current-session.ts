import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import { sessionView } from '@gatehouse/contracts';
import type { SessionView } from '../views/api-views';
import { callApi } from './api-client';
import type { ApiProblem } from './api-problem';
import { capabilitiesOf, type Capabilities, type Capability } from './capabilities';
import { REQUEST_PATH_HEADER, sessionEndedPathFor, signInPathFor } from './return-path';
import { readSessionCredentials } from './session-cookies';

export type SessionLookup =
  | { readonly status: 'signed-in'; readonly session: SessionView; readonly can: Capabilities }
  | { readonly status: 'signed-out' }
  /** The API no longer knows the session (expired, signed out elsewhere, membership removed). */
  | { readonly status: 'ended' }
  | { readonly status: 'unavailable'; readonly problem: ApiProblem };

/** Where a browser whose session ended is sent: a route handler that clears our cookies, then to sign-in. */
export const SESSION_ENDED_PATH = '/session-ended';

/** The path and query this request asked for (set by proxy.ts), to return to after signing in. */
export async function requestedPath(): Promise<string | null> {
  return (await headers()).get(REQUEST_PATH_HEADER);
}

/** Sign-in, returning to this request's page afterwards. */
export async function signInRedirectPath(): Promise<string> {
  return signInPathFor(await requestedPath());
}

/** The ended-session route, returning to this request's page after signing in again. */
export async function sessionEndedRedirectPath(): Promise<string> {
  return sessionEndedPathFor(await requestedPath());
}

/** The signed-in session, asked of the API once per request (layouts and pages share the answer). */
export const lookupSession = cache(async (): Promise<SessionLookup> => {
  if ((await readSessionCredentials()) === null) return { status: 'signed-out' };
  const result = await callApi({ method: 'GET', path: '/v1/auth/session', answer: sessionView });
  if (result.ok) {
    return {
      status: 'signed-in',
      session: result.data,
      can: capabilitiesOf(result.data.scopes, result.data.role),
    };
  }
  if (result.problem.status === 401) return { status: 'ended' };
  return { status: 'unavailable', problem: result.problem };
});

export type PageAccess =
  | { readonly ok: true; readonly session: SessionView; readonly can: Capabilities }
  | { readonly ok: false; readonly reason: 'unavailable'; readonly problem: ApiProblem }
  | { readonly ok: false; readonly reason: 'not_allowed'; readonly capability: Capability };

/**
 * The gate at the top of every signed-in page (a layout alone is not a gate: layouts do not re-render on every
 * navigation). Signed out or ended: redirects. API down: the page renders the problem. Lacking `needs`: the
 * page renders "not allowed" — the check is on the server, so a direct URL reaches nothing either.
 */
export async function pageAccess(needs?: Capability): Promise<PageAccess> {
  const lookup = await lookupSession();
  switch (lookup.status) {
    case 'signed-out':
      redirect(await signInRedirectPath());
    case 'ended':
      redirect(await sessionEndedRedirectPath());
    case 'unavailable':
      return { ok: false, reason: 'unavailable', problem: lookup.problem };
    case 'signed-in':
      if (needs !== undefined && !lookup.can[needs])
        return { ok: false, reason: 'not_allowed', capability: needs };
      return { ok: true, session: lookup.session, can: lookup.can };
  }
}

/** A data call's 401 mid-page means the session just ended: same handling as at the gate. */
export function redirectIfSessionEnded(problem: ApiProblem): void {
  if (problem.status === 401) redirect(SESSION_ENDED_PATH);
}
