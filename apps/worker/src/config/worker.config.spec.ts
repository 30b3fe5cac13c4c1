import { describeConfig, parseConfig, secretConfigKeys } from '@gatehouse/platform';
import { workerConfigSchema } from './worker.config.js';

describe('workerConfigSchema', () => {
  it('applies the documented defaults', () => {
    expect(parseConfig(workerConfigSchema, {})).toEqual({
      ok: true,
      config: {
        NODE_ENV: 'development',
        LOG_LEVEL: 'info',
        SHUTDOWN_GRACE_MS: 10_000,
        WORKER_HOST: '127.0.0.1',
        WORKER_PORT: 4100,
        REDIS_URL: 'redis://127.0.0.1:6379',
        QUEUE_PREFIX: 'gatehouse',
        REDIS_KEY_PREFIX: 'gatehouse:',
        API_URL: 'http://127.0.0.1:4000',
        WORKER_POOL: 'default',
        WORKER_CONCURRENCY: 4,
        CHILD_PATH: '/usr/local/bin:/usr/bin:/bin',
        CHILD_CLOSE_GRACE_MS: 2_000,
        DISCOVERY_STARTUP_TIMEOUT_MS: 30_000,
        JOB_LOCK_MS: 30_000,
      },
    });
  });

  it('names a bad value without printing it', () => {
    const result = parseConfig(workerConfigSchema, { WORKER_CONCURRENCY: '0', WORKER_POOL: 'has spaces' });
    expect(result).toMatchObject({
      ok: false,
      message:
        'invalid configuration: WORKER_POOL must be 1-64 letters, digits, dots, dashes or underscores; WORKER_CONCURRENCY must be a whole number from 1 to 256',
    });
  });

  it('describes every variable and flags the secrets', () => {
    for (const row of describeConfig(workerConfigSchema)) expect(row.description).not.toBe('');
    expect(secretConfigKeys(workerConfigSchema)).toEqual(['REDIS_URL', 'WORKER_TOKEN']);
  });
});
