import { describeConfig, parseConfig, secretConfigKeys } from '@gatehouse/platform';
import { runAsOptionsOf } from '@gatehouse/mcp-client';
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
        CHILD_USER: { uid: 65534, gid: 65534 },
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
  it('runs children as an unprivileged account, never root; `self` only outside production', () => {
    expect(parseConfig(workerConfigSchema, { CHILD_USER: '1000:1000' })).toMatchObject({
      ok: true,
      config: { CHILD_USER: { uid: 1000, gid: 1000 } },
    });
    expect(parseConfig(workerConfigSchema, { CHILD_USER: 'root' })).toMatchObject({
      ok: false,
      message: 'invalid configuration: CHILD_USER must not be uid 0 or gid 0',
    });
    expect(parseConfig(workerConfigSchema, { CHILD_USER: 'self' }).ok).toBe(true);
    expect(parseConfig(workerConfigSchema, { CHILD_USER: 'self', NODE_ENV: 'production' })).toMatchObject({
      ok: false,
      message:
        'invalid configuration: CHILD_USER must name an account when NODE_ENV=production (children would keep this process’s user)',
    });
  });

  it('gives children the fallback account outside production only: production refuses a pool without runAs', () => {
    const nobody = { uid: 65534, gid: 65534 };
    expect(runAsOptionsOf(nobody, 'development')).toEqual({ unprivilegedUser: nobody });
    expect(runAsOptionsOf(nobody, 'production')).toEqual({
      unprivilegedUser: null,
      requireSeparateAccount: true,
    });
    expect(runAsOptionsOf('self', 'test')).toEqual({ canSwitchUser: false });
  });
});
