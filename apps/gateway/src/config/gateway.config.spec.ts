import { describeConfig, parseConfig, secretConfigKeys } from '@gatehouse/platform';
import { gatewayConfigSchema } from './gateway.config.js';

describe('gatewayConfigSchema', () => {
  it('applies the documented defaults', () => {
    expect(parseConfig(gatewayConfigSchema, {})).toEqual({
      ok: true,
      config: {
        NODE_ENV: 'development',
        LOG_LEVEL: 'info',
        SHUTDOWN_GRACE_MS: 10_000,
        GATEWAY_HOST: '127.0.0.1',
        GATEWAY_PORT: 4200,
        REDIS_URL: 'redis://127.0.0.1:6379',
        REDIS_KEY_PREFIX: 'gatehouse:',
        REVOCATIONS_RETRY_MAX_MS: 5_000,
        API_URL: 'http://127.0.0.1:4000',
        GATEWAY_ALLOWED_HOSTS: ['localhost', '127.0.0.1', '[::1]'],
        GATEWAY_ALLOWED_ORIGINS: [],
        CALLER_CACHE_TTL_MS: 30_000,
        CATALOG_CACHE_TTL_MS: 5_000,
        RATE_LIMIT_PER_TOKEN: 600,
        RATE_LIMIT_PER_WORKSPACE: 6_000,
        SESSIONS_PER_TOKEN: 100,
        CHILD_PATH: '/usr/local/bin:/usr/bin:/bin',
        CHILD_USER: { uid: 65534, gid: 65534 },
        CHILD_CLOSE_GRACE_MS: 2_000,
        UPSTREAM_STARTUP_TIMEOUT_MS: 30_000,
        UPSTREAM_CALL_TIMEOUT_MS: 60_000,
      },
    });
  });

  it('names a bad URL without printing it', () => {
    const result = parseConfig(gatewayConfigSchema, { REDIS_URL: 'http://:pw-secret@redis:6379' });
    expect(result).toMatchObject({
      ok: false,
      message: 'invalid configuration: REDIS_URL must be a redis:// or rediss:// URL',
    });
  });

  it('reads the allowed hosts and origins as lists, and refuses one that is not a host', () => {
    const parsed = parseConfig(gatewayConfigSchema, {
      GATEWAY_ALLOWED_HOSTS: 'gateway.example.com, localhost:4200',
      GATEWAY_ALLOWED_ORIGINS: 'https://app.example.com',
    });
    expect(parsed).toMatchObject({
      ok: true,
      config: {
        GATEWAY_ALLOWED_HOSTS: ['gateway.example.com', 'localhost:4200'],
        GATEWAY_ALLOWED_ORIGINS: ['https://app.example.com'],
      },
    });
    expect(parseConfig(gatewayConfigSchema, { GATEWAY_ALLOWED_HOSTS: 'http://x/' })).toMatchObject({
      ok: false,
    });
  });

  it('describes every variable and flags the secrets', () => {
    for (const row of describeConfig(gatewayConfigSchema)) expect(row.description).not.toBe('');
    expect(secretConfigKeys(gatewayConfigSchema)).toEqual(['REDIS_URL', 'GATEWAY_TOKEN']);
  });
});
