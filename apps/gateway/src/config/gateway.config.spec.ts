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
        API_URL: 'http://127.0.0.1:4000',
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

  it('describes every variable and flags the secrets', () => {
    for (const row of describeConfig(gatewayConfigSchema)) expect(row.description).not.toBe('');
    expect(secretConfigKeys(gatewayConfigSchema)).toEqual(['REDIS_URL', 'GATEWAY_TOKEN']);
  });
});
