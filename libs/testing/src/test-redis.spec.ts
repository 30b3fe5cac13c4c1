import { createTestRedisPrefix } from './test-redis';

describe('createTestRedisPrefix', () => {
  it('returns a distinct, colon-terminated prefix each time', () => {
    const prefixes = new Set(Array.from({ length: 50 }, () => createTestRedisPrefix()));
    expect(prefixes.size).toBe(50);
    for (const prefix of prefixes) expect(prefix).toMatch(/^gh-test:[0-9a-f]{12}:$/);
  });
});
