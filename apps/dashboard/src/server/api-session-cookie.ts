// Reads the API's `Set-Cookie: gh_session=...; Max-Age=...` from its sign-in answer. The dashboard keeps the
// value in its own cookie (session-cookies.ts) instead of passing the API's cookie through to the browser.

export interface ApiSessionCookie {
  readonly sessionId: string;
  readonly maxAgeSeconds: number;
}

const SESSION_ID_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function apiSessionCookieFrom(setCookies: readonly string[]): ApiSessionCookie | undefined {
  for (const header of setCookies) {
    const [pair = '', ...attributes] = header.split(';');
    const separator = pair.indexOf('=');
    if (separator < 0 || pair.slice(0, separator).trim() !== 'gh_session') continue;
    const sessionId = pair.slice(separator + 1).trim();
    if (!SESSION_ID_SHAPE.test(sessionId)) return undefined;
    const maxAge = attributes
      .map((attribute) => attribute.trim().split('='))
      .find(([name]) => name?.toLowerCase() === 'max-age')?.[1];
    const seconds = Number(maxAge);
    return { sessionId, maxAgeSeconds: Number.isFinite(seconds) && seconds > 0 ? seconds : 12 * 3600 };
  }
  return undefined;
}
