import { z } from 'zod';
import { secret } from './config-field.js';
import { ipListField, logLevelField, portField, redisUrlField } from './config-fields.js';
import { describeConfig, renderConfigTable, secretConfigKeys } from './describe-config.js';

const base = redisUrlField();
const schema = z.object({
  LOG_LEVEL: logLevelField(),
  PORT: portField().default(4000).describe('Port to listen on.'),
  REDIS_URL: secret(base).default('redis://127.0.0.1:6379').describe('Redis connection URL.'),
  TOKEN: secret(z.string()).optional().describe('Service token.'),
  PLAIN: base.describe('Shares the base schema of REDIS_URL but is not secret.'),
  PROXIES: ipListField().default([]).describe('Trusted proxies.'),
});

describe('describeConfig', () => {
  it('describes every variable in schema order', () => {
    expect(describeConfig(schema)).toEqual([
      {
        name: 'LOG_LEVEL',
        type: 'fatal | error | warn | info | debug | trace | silent',
        default: 'info',
        required: false,
        secret: false,
        description: 'Minimum level of the JSON log lines written to stdout.',
      },
      {
        name: 'PORT',
        type: 'port',
        default: '4000',
        required: false,
        secret: false,
        description: 'Port to listen on.',
      },
      {
        name: 'REDIS_URL',
        type: 'Redis URL',
        default: 'redis://127.0.0.1:6379',
        required: false,
        secret: true,
        description: 'Redis connection URL.',
      },
      {
        name: 'TOKEN',
        type: 'string',
        default: undefined,
        required: false,
        secret: true,
        description: 'Service token.',
      },
      {
        name: 'PLAIN',
        type: 'Redis URL',
        default: undefined,
        required: true,
        secret: false,
        description: 'Shares the base schema of REDIS_URL but is not secret.',
      },
      {
        name: 'PROXIES',
        type: 'comma-separated IPs/CIDRs',
        default: '',
        required: false,
        secret: false,
        description: 'Trusted proxies.',
      },
    ]);
  });

  it('prints an object default as the JSON one would set, never [object Object]', () => {
    const pools = z
      .object({
        POOLS: z.record(z.string(), z.object({ tenants: z.string() })).default({ default: { tenants: '*' } }),
      })
      .describe('Pools.');
    const [field] = describeConfig(pools);
    expect(field?.default).toBe('{"default":{"tenants":"*"}}');
  });

  it('lists the secret variables', () => {
    expect(secretConfigKeys(schema)).toEqual(['REDIS_URL', 'TOKEN']);
  });

  it('renders a Markdown table', () => {
    const table = renderConfigTable(describeConfig(schema)).split('\n');
    expect(table[0]).toBe('| Variable | Type | Default | Secret | Description |');
    expect(table).toContain('| `PORT` | port | `4000` |  | Port to listen on. |');
    expect(table).toContain(
      '| `PLAIN` | Redis URL | **required** |  | Shares the base schema of REDIS_URL but is not secret. |',
    );
    expect(table).toContain('| `PROXIES` | comma-separated IPs/CIDRs | (empty) |  | Trusted proxies. |');
    expect(table.find((line) => line.startsWith('| `LOG_LEVEL`'))).toContain('fatal \\| error');
  });
});
