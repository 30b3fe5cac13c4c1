// The env a spec starts its API with (decision 0121), so that no spec forgets its own namespaces: test mode, silent,
// the test Redis, a fresh envelope key, and the spec's own BullMQ and Redis key namespaces. Suites running in
// parallel then never see each other's catalog-refresh or probe jobs nor each other's revocation events; the
// spec hands the same QUEUE_PREFIX and REDIS_KEY_PREFIX to its workers and gateways. Parsed by the API's schema.
import { randomBytes } from 'node:crypto';
import { createTestRedisPrefix, testRedisUrl } from '../test-redis';

export interface TestNamespaces {
  /** BullMQ's key prefix of the API's producers and the spec's workers. */
  readonly QUEUE_PREFIX: string;
  /** The API's Redis key namespace: its revocation relay publishes under it, holders subscribe under it. */
  readonly REDIS_KEY_PREFIX: string;
}

/** A spec's own queue and Redis key namespaces. */
export function testNamespaces(): TestNamespaces {
  return {
    QUEUE_PREFIX: `gh-test-${randomBytes(6).toString('hex')}`,
    REDIS_KEY_PREFIX: createTestRedisPrefix(),
  };
}

/**
 * The API's env on this test database, with fresh namespaces unless the spec passes its own (`more` last: pools,
 * intervals, or a namespace the spec needs to know before its API starts).
 */
export function testApiEnv(
  databaseUrl: string,
  more: Record<string, string> = {},
): Record<string, string> & TestNamespaces {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: databaseUrl,
    REDIS_URL: testRedisUrl(),
    ...testNamespaces(),
    GATEHOUSE_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    GATEHOUSE_ACTIVE_KEY_ID: 'k1',
    ...more,
  };
}
