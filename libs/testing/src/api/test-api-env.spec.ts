import { testApiEnv, testNamespaces } from './test-api-env';

describe('testApiEnv', () => {
  it("gives every call its own QUEUE_PREFIX and REDIS_KEY_PREFIX, and the spec's own values win", () => {
    const one = testApiEnv('postgresql://app@127.0.0.1/one');
    const two = testApiEnv('postgresql://app@127.0.0.1/two', { WORKER_POOLS: '{}' });
    expect(one.QUEUE_PREFIX).not.toBe(two.QUEUE_PREFIX);
    expect(one.REDIS_KEY_PREFIX).not.toBe(two.REDIS_KEY_PREFIX);
    expect(one.REDIS_KEY_PREFIX).toMatch(/^gh-test:[0-9a-f]{12}:$/);
    expect(one.GATEHOUSE_KEYS).not.toBe(two.GATEHOUSE_KEYS);
    expect(two).toMatchObject({
      NODE_ENV: 'test',
      DATABASE_URL: 'postgresql://app@127.0.0.1/two',
      WORKER_POOLS: '{}',
    });
    const namespaces = testNamespaces();
    expect(testApiEnv('postgresql://app@127.0.0.1/three', { ...namespaces })).toMatchObject(namespaces);
  });
});
