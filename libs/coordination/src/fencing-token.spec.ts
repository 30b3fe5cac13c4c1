import { checkFencingToken } from './fencing-token';

describe('checkFencingToken', () => {
  it('accepts the first token a store sees', () => {
    expect(checkFencingToken(null, 1n)).toEqual({ ok: true });
  });

  it('accepts a higher token and the same token again', () => {
    expect(checkFencingToken(5n, 6n)).toEqual({ ok: true });
    expect(checkFencingToken(5n, 5n)).toEqual({ ok: true });
  });

  it('refuses a lower token', () => {
    expect(checkFencingToken(5n, 4n)).toEqual({ ok: false, reason: 'stale_fencing_token' });
  });

  it('compares beyond 2^53 exactly', () => {
    expect(checkFencingToken(9007199254740993n, 9007199254740992n)).toEqual({
      ok: false,
      reason: 'stale_fencing_token',
    });
  });
});
