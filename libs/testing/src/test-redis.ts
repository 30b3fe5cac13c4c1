import { randomBytes } from 'node:crypto';
import { readTestEnv } from './test-env';

/** A key prefix unique to one test file (e.g. `gh-test:3f9a0c1b2d4e:`), so files share Redis safely. */
export function createTestRedisPrefix(): string {
  return `gh-test:${randomBytes(6).toString('hex')}:`;
}

export function testRedisUrl(): string {
  return readTestEnv().redisUrl;
}
