import { apiSessionCookieFrom } from './api-session-cookie';

const ID = 'Ck-0BfWo4wM5a9lo5YaOr6aRKvWPGoR8iT78NjB3fjE';

describe('apiSessionCookieFrom', () => {
  it('reads the session id and lifetime of the API cookie', () => {
    expect(
      apiSessionCookieFrom([
        'other=1; Path=/',
        `gh_session=${ID}; Max-Age=43199; Path=/; HttpOnly; SameSite=Lax`,
      ]),
    ).toEqual({ sessionId: ID, maxAgeSeconds: 43199 });
  });

  it('refuses a value that is not a session id, and a missing cookie', () => {
    expect(apiSessionCookieFrom(['gh_session=short; Max-Age=10'])).toBeUndefined();
    expect(apiSessionCookieFrom([])).toBeUndefined();
  });
});
