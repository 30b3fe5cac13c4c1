import { randomOpaqueSecret } from './opaque-secret';
import { clearedSessionCookie, sessionCookie, sessionIdFromCookieHeader } from './session-cookie';

describe('session cookie', () => {
  const id = randomOpaqueSecret();

  it('is HttpOnly, SameSite=Lax, Path=/ and Secure when asked', () => {
    const header = sessionCookie(id, 3600, { secure: true });
    expect(header).toBe(`gh_session=${id}; Max-Age=3600; Path=/; HttpOnly; Secure; SameSite=Lax`);
    expect(sessionCookie(id, 3600, { secure: false })).not.toContain('Secure');
  });

  it('is cleared with the same attributes', () => {
    expect(clearedSessionCookie({ secure: false })).toBe(
      'gh_session=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/; HttpOnly; SameSite=Lax',
    );
  });

  it('reads the id from a Cookie header among others, and ignores values of another shape', () => {
    expect(sessionIdFromCookieHeader(`theme=dark; gh_session=${id}; x=1`)).toBe(id);
    expect(sessionIdFromCookieHeader('gh_session=short')).toBeUndefined();
    expect(sessionIdFromCookieHeader(undefined)).toBeUndefined();
    expect(sessionIdFromCookieHeader('other=1')).toBeUndefined();
    expect(sessionIdFromCookieHeader(`not_gh_session=${id}`)).toBeUndefined();
  });
});
