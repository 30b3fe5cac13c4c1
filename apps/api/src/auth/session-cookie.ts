// The dashboard session cookie. Its value is an opaque random id (only its sha256 is stored server-side).
//
// SameSite=Lax, not Strict: approvers follow links to an approval from chat or email, and with Strict that
// top-level navigation would arrive without the cookie and look signed out. Lax still withholds the cookie
// from every cross-site subrequest and cross-site POST, and writes need more than the cookie anyway (a CSRF
// token in a header plus a JSON body, see csrf.guard.ts); GET handlers change nothing. Path=/ because the
// dashboard's server forwards to /v1 and /graphql alike. HttpOnly: no script ever needs it. Secure except in
// development and test, where the dashboard runs on plain http://localhost.
//
// Read and written here rather than through @fastify/cookie: any route (ours, the command routes, GraphQL)
// must see the cookie wherever that plugin is or is not registered, and @fastify/cookie 11's standalone
// parse/serialize only work after the plugin has loaded the ESM `cookie` package. Our value is always
// base64url, so no encoding is involved.

export const SESSION_COOKIE = 'gh_session';

const SESSION_ID_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export interface SessionCookieOptions {
  readonly secure: boolean;
}

/** The session id from a Cookie header; undefined when absent or not of our shape (never looked up then). */
export function sessionIdFromCookieHeader(header: string | undefined): string | undefined {
  if (header === undefined || !header.includes(SESSION_COOKIE)) return undefined;
  // RFC 6265 §5.4: pairs separated by `;`. If a (malicious) duplicate exists, the first one wins, as in
  // browsers' ordering of the most specific path first.
  for (const pair of header.split(';')) {
    const separator = pair.indexOf('=');
    if (separator < 0 || pair.slice(0, separator).trim() !== SESSION_COOKIE) continue;
    const value = pair.slice(separator + 1).trim();
    return SESSION_ID_SHAPE.test(value) ? value : undefined;
  }
  return undefined;
}

/** Set-Cookie for a new session. Max-Age is the absolute lifetime; the server enforces the idle timeout. */
export function sessionCookie(
  sessionId: string,
  maxAgeSeconds: number,
  options: SessionCookieOptions,
): string {
  if (!SESSION_ID_SHAPE.test(sessionId)) throw new TypeError('session id is not of the expected shape');
  return `${SESSION_COOKIE}=${sessionId}; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}${attributes(options)}`;
}

/** Set-Cookie that removes the session cookie (same attributes, so the browser matches it). */
export function clearedSessionCookie(options: SessionCookieOptions): string {
  return `${SESSION_COOKIE}=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT${attributes(options)}`;
}

function attributes(options: SessionCookieOptions): string {
  return `; Path=/; HttpOnly${options.secure ? '; Secure' : ''}; SameSite=Lax`;
}
