import { checkCsrf, isJsonMediaType } from './csrf.guard';
import { randomOpaqueSecret, sha256 } from './opaque-secret';

describe('checkCsrf', () => {
  const token = randomOpaqueSecret();
  const hash = sha256(token);
  const json = { 'content-type': 'application/json; charset=utf-8', 'content-length': '2' };

  it('lets safe methods through without a token', () => {
    expect(checkCsrf({ method: 'GET', headers: {} }, hash)).toEqual({ ok: true });
    expect(checkCsrf({ method: 'HEAD', headers: {} }, hash)).toEqual({ ok: true });
  });

  it('accepts a JSON write with the session token', () => {
    expect(checkCsrf({ method: 'POST', headers: { ...json, 'x-csrf-token': token } }, hash)).toEqual({
      ok: true,
    });
  });

  it('refuses a write without the token, or with another one', () => {
    expect(checkCsrf({ method: 'POST', headers: json }, hash)).toEqual({
      ok: false,
      reason: 'missing_token',
    });
    expect(
      checkCsrf({ method: 'PATCH', headers: { ...json, 'x-csrf-token': randomOpaqueSecret() } }, hash),
    ).toEqual({
      ok: false,
      reason: 'token_mismatch',
    });
  });

  it.each(['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'text/plain'])(
    'refuses a %s body even with the right token',
    (contentType) => {
      const headers = { 'content-type': contentType, 'content-length': '5', 'x-csrf-token': token };
      expect(checkCsrf({ method: 'POST', headers }, hash)).toEqual({ ok: false, reason: 'not_json' });
    },
  );

  it('refuses a POST with no content type, but lets a bodiless DELETE through with the token', () => {
    expect(checkCsrf({ method: 'POST', headers: { 'x-csrf-token': token } }, hash)).toEqual({
      ok: false,
      reason: 'not_json',
    });
    expect(checkCsrf({ method: 'DELETE', headers: { 'x-csrf-token': token } }, hash)).toEqual({ ok: true });
    expect(
      checkCsrf({ method: 'DELETE', headers: { 'content-length': '4', 'x-csrf-token': token } }, hash),
    ).toEqual({
      ok: false,
      reason: 'not_json',
    });
    expect(checkCsrf({ method: 'DELETE', headers: {} }, hash)).toEqual({
      ok: false,
      reason: 'missing_token',
    });
  });
});

describe('isJsonMediaType', () => {
  it('accepts application/json with parameters, nothing else', () => {
    expect(isJsonMediaType('Application/JSON ; charset=utf-8')).toBe(true);
    expect(isJsonMediaType('application/jsonx')).toBe(false);
    expect(isJsonMediaType('text/json')).toBe(false);
  });
});
