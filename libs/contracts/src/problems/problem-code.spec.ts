import { isProblemCode, PROBLEM_CODES } from './problem-code';

describe('problem codes', () => {
  it('are unique snake_case words', () => {
    expect(new Set(PROBLEM_CODES).size).toBe(PROBLEM_CODES.length);
    for (const code of PROBLEM_CODES) expect(code).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
  });

  it('keep one word per meaning (no synonyms)', () => {
    for (const synonym of ['unauthorized', 'too_many_requests', 'not_authenticated', 'throttled', 'internal_error'])
      expect(isProblemCode(synonym)).toBe(false);
    expect(isProblemCode('unauthenticated')).toBe(true);
    expect(isProblemCode('rate_limited')).toBe(true);
  });

  it('reads untrusted values without trusting them', () => {
    for (const value of [undefined, null, 7, {}, ['not_found'], 'NOT_FOUND', 'not_found '])
      expect(isProblemCode(value)).toBe(false);
    expect(isProblemCode('not_found')).toBe(true);
  });
});
