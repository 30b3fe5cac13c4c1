import { fastifyCookie } from '@fastify/cookie';

// The dashboard session cookie. Its value is an opaque random id (only its sha256 is stored server-side).
//
// SameSite=Lax, not Strict: approvers follow links to an approval from chat or email, and with Strict that
// top-level navigation would arrive without the cookie and look signed out. Lax still withholds the cookie
// from every cross-site subrequest and cross-site POST, and writes need more than the cookie anyway (a CSRF
// token in a header plus a JSON body, see csrf.guard.ts); GET handlers change nothing. Path=/ because the
// dashboard's server forwards to /v1 and /graphql alike. HttpOnly: no script ever needs it. Secure except in
// development and test, where the dashboard runs on plain http://localhost.
//
// Parsing and serializing use @fastify/cookie's standalone functions, not its plugin, so any route (ours,
// the command routes, GraphQL) can read the cookie without depending on where the plugin was registered.

export const SESSION_COOKIE = 'gh_session';

const SESSION_ID_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export interface SessionCookieOptions {
  readonly secure: boolean;
}

/** The session id from a Cookie header; undefined when absent or not of our shape (never looked up then). */
export function sessionIdFromCookieHeader(header: string | undefined): string | undefined {
  if (header === undefined || !header.includes(SESSION_COOKIE)) return undefined;
  const value = fastifyCookie.parse(header)[SESSION_COOKIE];
  return value !== undefined && SESSION_ID_SHAPE.test(value) ? value : undefined;
}

/** Set-Cookie for a new session. Max-Age is the absolute lifetime; the server enforces the idle timeout. */
export function sessionCookie(sessionId: string, maxAgeSeconds: number, options: SessionCookieOptions): string {
  return fastifyCookie.serialize(SESSION_COOKIE, sessionId, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: options.secure,
    maxAge: maxAgeSeconds,
  });
}

/** Set-Cookie that removes the session cookie (same attributes, so the browser matches it). */
export function clearedSessionCookie(options: SessionCookieOptions): string {
  return fastifyCookie.serialize(SESSION_COOKIE, '', {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: options.secure,
    maxAge: 0,
    expires: new Date(0),
  });
}
