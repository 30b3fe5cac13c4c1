import { z } from 'zod';
import { secret } from './config-field.js';
import { httpUrlField, ipListField, nodeEnvField, portField, postgresUrlField } from './config-fields.js';
import { loadConfigOrExit, parseConfig } from './parse-config.js';

const schema = z.object({
  NODE_ENV: nodeEnvField(),
  PORT: portField().default(4000).describe('Port.'),
  DATABASE_URL: secret(postgresUrlField()).describe('Database.'),
  PUBLIC_URL: httpUrlField().default('http://127.0.0.1:4000'),
  TRUSTED_PROXIES: ipListField().default([]),
  API_TOKEN: secret(z.string().min(40, 'must be at least 40 characters')).optional(),
});

const validEnv = { DATABASE_URL: 'postgresql://app:pw@127.0.0.1:5432/db' };

describe('parseConfig', () => {
  it('returns typed values with defaults applied and unrelated variables ignored', () => {
    const result = parseConfig(schema, {
      ...validEnv,
      PORT: '4100',
      UNRELATED: 'x',
      TRUSTED_PROXIES: '10.0.0.1, 10.1.0.0/16',
    });
    expect(result).toEqual({
      ok: true,
      config: {
        NODE_ENV: 'development',
        PORT: 4100,
        DATABASE_URL: validEnv.DATABASE_URL,
        PUBLIC_URL: 'http://127.0.0.1:4000',
        TRUSTED_PROXIES: ['10.0.0.1', '10.1.0.0/16'],
      },
    });
  });

  it('treats an empty value as unset', () => {
    const result = parseConfig(schema, { ...validEnv, PORT: '' });
    expect(result.ok && result.config.PORT).toBe(4000);
  });

  it('names a missing required variable', () => {
    const result = parseConfig(schema, {});
    expect(result).toMatchObject({ ok: false, reason: 'invalid_config' });
    if (result.ok) return;
    expect(result.issues).toEqual([{ variable: 'DATABASE_URL', problem: 'is required but not set' }]);
    expect(result.message).toBe('invalid configuration: DATABASE_URL is required but not set');
  });

  it('names the variable and the problem on one line, never the value', () => {
    const leaked = 'mysql://root:hunter2-very-secret@db/prod';
    const result = parseConfig(schema, {
      DATABASE_URL: leaked,
      PORT: '99999',
      API_TOKEN: 'short-secret-token',
    });
    if (result.ok) throw new Error('expected a failure');
    expect(result.message).not.toContain('\n');
    expect(result.message).toContain('DATABASE_URL must be a postgresql:// or postgres:// URL');
    expect(result.message).toContain('PORT must be a whole number from 1 to 65535');
    expect(result.message).toContain('API_TOKEN must be at least 40 characters');
    for (const value of [leaked, 'hunter2', '99999', 'short-secret-token'])
      expect(result.message).not.toContain(value);
  });

  it('never echoes a value even when a refinement message would contain it', () => {
    const echoing = z.object({
      MODE: z.string().refine(() => false, { message: 'value sekret-mode is not allowed' }),
    });
    const result = parseConfig(echoing, { MODE: 'sekret-mode' });
    if (result.ok) throw new Error('expected a failure');
    expect(result.message).toBe('invalid configuration: MODE value [value] is not allowed');
  });

  it('rejects enum and list values with a message naming the expectation', () => {
    const result = parseConfig(schema, {
      ...validEnv,
      NODE_ENV: 'staging',
      TRUSTED_PROXIES: '10.0.0.1,not-an-ip',
    });
    if (result.ok) throw new Error('expected a failure');
    expect(result.issues).toEqual([
      { variable: 'NODE_ENV', problem: 'must be one of development, test, production' },
      { variable: 'TRUSTED_PROXIES', problem: 'must list IP addresses or CIDR blocks, comma-separated' },
    ]);
    expect(result.message).not.toContain('not-an-ip');
    expect(result.message).not.toContain('staging');
  });
});

describe('loadConfigOrExit', () => {
  it('returns the config when valid', () => {
    const write = jest.fn();
    const config = loadConfigOrExit(schema, validEnv, write, () => {
      throw new Error('must not exit');
    });
    expect(config.PORT).toBe(4000);
    expect(write).not.toHaveBeenCalled();
  });

  it('writes one line and exits 1 when invalid', () => {
    const lines: string[] = [];
    const exit = jest.fn((code: number): never => {
      throw new Error(`exit ${code}`);
    });
    expect(() => loadConfigOrExit(schema, { PORT: 'abc' }, (line) => lines.push(line), exit)).toThrow(
      'exit 1',
    );
    expect(exit).toHaveBeenCalledWith(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^invalid configuration: .*\n$/);
    expect(lines[0]?.trimEnd()).not.toContain('\n');
    expect(lines[0]).toContain('PORT');
    expect(lines[0]).toContain('DATABASE_URL is required but not set');
  });
});
