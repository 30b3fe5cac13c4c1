import { safeReturnPath } from './form-data';

// Sign-in from a deep link returns to it: a signed-out visitor of `/approvals/<id>` is sent to
// `/sign-in?next=%2Fapprovals%2F<id>`, and the sign-in form sends them back there. Server components cannot read
// the URL they render, so `proxy.ts` hands it over in a request header. Pure, apart from the header's name.

/** The request header `proxy.ts` sets to the path and query the browser asked for. */
export const REQUEST_PATH_HEADER = 'x-gatehouse-path';

/** Where sign-in returns to when no deep link applies (what `/` redirects to). */
const HOME = '/overview';

/** A requested path, if it is one to return to: same-site, not sign-in itself, not the home page. */
export function returnPathOf(requested: string | null | undefined): string | undefined {
  if (requested === null || requested === undefined || requested === '' || requested === '/')
    return undefined;
  const safe = safeReturnPath(requested);
  return safe === requested && safe !== HOME ? safe : undefined;
}

/** `/sign-in`, carrying the deep link to return to (and a reason, when the session ended). */
export function signInPathFor(requested: string | null | undefined, reason?: 'expired'): string {
  const next = returnPathOf(requested);
  const query = new URLSearchParams();
  if (reason !== undefined) query.set('reason', reason);
  if (next !== undefined) query.set('next', next);
  const text = query.toString();
  return text === '' ? '/sign-in' : `/sign-in?${text}`;
}

/** The route that forgets an ended session's cookies, carrying the deep link on to sign-in. */
export function sessionEndedPathFor(requested: string | null | undefined): string {
  const next = returnPathOf(requested);
  return next === undefined ? '/session-ended' : `/session-ended?${new URLSearchParams({ next }).toString()}`;
}
