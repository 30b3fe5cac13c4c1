import { cookies, headers } from 'next/headers';

// The dashboard's own cookies. The browser never holds the API's `gh_session` cookie (it is the API's, set for
// the API's origin): the dashboard's sign-in action receives the API session id and CSRF token and keeps them in
// these httpOnly cookies, which only this server reads, and which it turns into `cookie: gh_session=...` and
// `x-csrf-token` on its own calls to the API. SameSite=Lax for the reason the API's cookie is Lax (links from
// chat or mail land signed in); cross-site POSTs do not carry them, and Next.js checks Origin on server actions.

export const SESSION_COOKIE = 'gh_dash_session';
export const CSRF_COOKIE = 'gh_dash_csrf';

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export interface SessionCredentials {
  readonly sessionId: string;
  readonly csrfToken: string;
}

export async function readSessionCredentials(): Promise<SessionCredentials | null> {
  const store = await cookies();
  const sessionId = store.get(SESSION_COOKIE)?.value;
  const csrfToken = store.get(CSRF_COOKIE)?.value;
  if (sessionId === undefined || csrfToken === undefined) return null;
  // A value of another shape was not written by us: never forward it.
  if (!TOKEN_SHAPE.test(sessionId) || !TOKEN_SHAPE.test(csrfToken)) return null;
  return { sessionId, csrfToken };
}

/**
 * Secure whenever the browser reached the dashboard over https (directly, or through a proxy that says so in
 * X-Forwarded-Proto). `next start` always runs with NODE_ENV=production, also for `npm start` on plain
 * http://127.0.0.1, where a Secure cookie would be dropped; a forged header only changes the attribute of the
 * forger's own cookie.
 */
async function isHttps(): Promise<boolean> {
  return (await headers()).get('x-forwarded-proto')?.split(',')[0]?.trim() === 'https';
}

export async function storeSessionCredentials(
  credentials: SessionCredentials,
  maxAgeSeconds: number,
): Promise<void> {
  const store = await cookies();
  const options = {
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: await isHttps(),
    path: '/',
    maxAge: Math.max(0, Math.floor(maxAgeSeconds)),
  };
  store.set(SESSION_COOKIE, credentials.sessionId, options);
  store.set(CSRF_COOKIE, credentials.csrfToken, options);
}

export async function clearSessionCredentials(): Promise<void> {
  const store = await cookies();
  store.delete(SESSION_COOKIE);
  store.delete(CSRF_COOKIE);
}
