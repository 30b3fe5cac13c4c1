import { returnPathOf, sessionEndedPathFor, signInPathFor } from './return-path';

describe('sign-in from a deep link', () => {
  it('carries the requested path and query to sign-in', () => {
    expect(signInPathFor('/approvals/0b7a3c4e-1111-4222-8333-444455556666')).toBe(
      '/sign-in?next=%2Fapprovals%2F0b7a3c4e-1111-4222-8333-444455556666',
    );
    expect(signInPathFor('/approvals?show=decisions')).toBe('/sign-in?next=%2Fapprovals%3Fshow%3Ddecisions');
    expect(signInPathFor('/tokens', 'expired')).toBe('/sign-in?reason=expired&next=%2Ftokens');
    expect(sessionEndedPathFor('/tokens')).toBe('/session-ended?next=%2Ftokens');
  });

  it('drops the home page, sign-in itself, and anything that could lead elsewhere', () => {
    expect(signInPathFor('/overview')).toBe('/sign-in');
    expect(signInPathFor(undefined)).toBe('/sign-in');
    expect(signInPathFor('/', 'expired')).toBe('/sign-in?reason=expired');
    for (const path of ['//evil.test/x', '/\\evil.test', 'https://evil.test/', '/sign-in?next=/x', '/a b']) {
      expect(returnPathOf(path)).toBeUndefined();
    }
    expect(sessionEndedPathFor('//evil.test')).toBe('/session-ended');
  });
});
