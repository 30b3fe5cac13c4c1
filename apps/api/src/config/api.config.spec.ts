import { randomBytes } from 'node:crypto';
import { describeConfig, parseConfig, secretConfigKeys } from '@gatehouse/platform';
import { apiConfigSchema } from './api.config.js';

const key = (bytes = 32) => randomBytes(bytes).toString('base64');
const base = { DATABASE_URL: 'postgresql://gatehouse_app@127.0.0.1:5432/gatehouse' };

function message(env: Record<string, string>): string {
  const result = parseConfig(apiConfigSchema, env);
  if (result.ok) throw new Error('expected a failure');
  return result.message;
}

describe('apiConfigSchema', () => {
  it('applies the documented defaults', () => {
    const result = parseConfig(apiConfigSchema, base);
    expect(result).toEqual({
      ok: true,
      config: {
        NODE_ENV: 'development',
        LOG_LEVEL: 'info',
        SHUTDOWN_GRACE_MS: 10_000,
        API_HOST: '127.0.0.1',
        API_PORT: 4000,
        DATABASE_URL: base.DATABASE_URL,
        REDIS_URL: 'redis://127.0.0.1:6379',
        PUBLIC_URL: 'http://127.0.0.1:4000',
        OAUTH_REFRESH_LOCK_TTL_MS: 10_000,
        OAUTH_REFRESH_GRANT_TIMEOUT_MS: 5_000,
        OAUTH_REFRESH_LEASE_MARGIN_MS: 1_000,
        TRUSTED_PROXIES: [],
        QUEUE_PREFIX: 'gatehouse',
        CATALOG_REFRESH_MAX_AGE_MS: 21_600_000,
        PROBE_MAX_AGE_MS: 900_000,
        WORKER_POOLS: { default: { tenants: '*' } },
        SESSION_IDLE_MINUTES: 30,
        SESSION_ABSOLUTE_HOURS: 12,
      },
    });
  });

  it('accepts a valid key ring', () => {
    const result = parseConfig(apiConfigSchema, {
      ...base,
      GATEHOUSE_KEYS: `k1:${key()},k2:${key()}`,
      GATEHOUSE_ACTIVE_KEY_ID: 'k2',
    });
    expect(result.ok).toBe(true);
  });

  it('names key ring problems without printing key material', () => {
    const short = key(16);
    const text = message({ ...base, GATEHOUSE_KEYS: `k1:${short}`, GATEHOUSE_ACTIVE_KEY_ID: 'k1' });
    expect(text).toBe('invalid configuration: GATEHOUSE_KEYS key k1 (entry 1) is not 32 bytes');
    expect(text).not.toContain(short);
    expect(message({ ...base, GATEHOUSE_KEYS: `k1:${key()}`, GATEHOUSE_ACTIVE_KEY_ID: 'k9' })).toBe(
      'invalid configuration: GATEHOUSE_ACTIVE_KEY_ID names no key in GATEHOUSE_KEYS',
    );
    expect(message({ ...base, GATEHOUSE_KEYS: `k1:${key()}` })).toContain(
      'GATEHOUSE_ACTIVE_KEY_ID is required when GATEHOUSE_KEYS is set',
    );
    expect(message({ ...base, GATEHOUSE_KEYS: 'garbage', GATEHOUSE_ACTIVE_KEY_ID: 'k1' })).toContain(
      'GATEHOUSE_KEYS entry 1 is not kid:base64',
    );
  });

  it('refuses unsafe settings in production', () => {
    const text = message({ ...base, NODE_ENV: 'production', PUBLIC_URL: 'http://gatehouse.example.com' });
    expect(text).toContain('GATEHOUSE_KEYS is required when NODE_ENV=production');
    expect(text).toContain('PUBLIC_URL must be https:// when NODE_ENV=production');
  });

  it('refuses allowInsecureLoopback in production, in one line, and allows it elsewhere', () => {
    const keys = { GATEHOUSE_KEYS: `k1:${key()}`, GATEHOUSE_ACTIVE_KEY_ID: 'k1' };
    const WORKER_POOLS = '{"dev":{"tenants":"*","allowInsecureLoopback":true}}';
    const text = message({ ...base, ...keys, NODE_ENV: 'production', WORKER_POOLS });
    expect(text).toBe(
      'invalid configuration: WORKER_POOLS allowInsecureLoopback is refused when NODE_ENV=production',
    );
    expect(parseConfig(apiConfigSchema, { ...base, WORKER_POOLS }).ok).toBe(true);
  });

  it('allows production with keys, https, or a loopback URL', () => {
    const keys = { GATEHOUSE_KEYS: `k1:${key()}`, GATEHOUSE_ACTIVE_KEY_ID: 'k1' };
    expect(
      parseConfig(apiConfigSchema, {
        ...base,
        ...keys,
        NODE_ENV: 'production',
        PUBLIC_URL: 'https://gh.example.com',
      }).ok,
    ).toBe(true);
    expect(parseConfig(apiConfigSchema, { ...base, ...keys, NODE_ENV: 'production' }).ok).toBe(true);
  });

  it('refuses a plain-http DASHBOARD_URL in production unless loopback (the callback sends browsers there)', () => {
    const production = {
      ...base,
      GATEHOUSE_KEYS: `k1:${key()}`,
      GATEHOUSE_ACTIVE_KEY_ID: 'k1',
      NODE_ENV: 'production',
    };
    const plain = parseConfig(apiConfigSchema, { ...production, DASHBOARD_URL: 'http://dash.example.com' });
    expect(plain.ok).toBe(false);
    if (!plain.ok) expect(plain.message).toContain('DASHBOARD_URL');
    expect(
      parseConfig(apiConfigSchema, { ...production, DASHBOARD_URL: 'https://dash.example.com' }).ok,
    ).toBe(true);
    expect(parseConfig(apiConfigSchema, { ...production, DASHBOARD_URL: 'http://127.0.0.1:3000' }).ok).toBe(
      true,
    );
  });

  it('describes every variable and flags the secrets', () => {
    const rows = describeConfig(apiConfigSchema);
    for (const row of rows) expect(row.description).not.toBe('');
    expect(rows.map((row) => row.name)).toEqual([
      'NODE_ENV',
      'LOG_LEVEL',
      'SHUTDOWN_GRACE_MS',
      'API_HOST',
      'API_PORT',
      'DATABASE_URL',
      'REDIS_URL',
      'GATEHOUSE_KEYS',
      'GATEHOUSE_ACTIVE_KEY_ID',
      'PUBLIC_URL',
      'DASHBOARD_URL',
      'OAUTH_REFRESH_LOCK_TTL_MS',
      'OAUTH_REFRESH_GRANT_TIMEOUT_MS',
      'OAUTH_REFRESH_LEASE_MARGIN_MS',
      'WORKER_POOLS',
      'SESSION_IDLE_MINUTES',
      'SESSION_ABSOLUTE_HOURS',
      'REDIS_KEY_PREFIX',
      'QUEUE_PREFIX',
      'CATALOG_SWEEP_EVERY_MS',
      'CATALOG_REFRESH_MAX_AGE_MS',
      'PROBE_MAX_AGE_MS',
      'TRUSTED_PROXIES',
    ]);
    expect(secretConfigKeys(apiConfigSchema)).toEqual(['DATABASE_URL', 'REDIS_URL', 'GATEHOUSE_KEYS']);
  });
});
