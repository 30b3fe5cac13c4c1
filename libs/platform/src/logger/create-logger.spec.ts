import { Writable } from 'node:stream';
import { createLogger, REDACTED } from './create-logger.js';
import { NestLoggerAdapter } from './nest-logger-adapter.js';
import { createKeyClassifier } from './sensitive-names.js';

function capture(secretKeys: readonly string[] = [], secretValues: readonly string[] = []) {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const logger = createLogger({ name: 'test', level: 'trace', secretKeys, secretValues, destination });
  return { logger, lines, records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

const SECRET = 'sk-live-0123456789abcdef';

describe('createLogger', () => {
  it('writes JSON lines with the level label and name', () => {
    const { logger, records } = capture();
    logger.info({ tenantId: 't1' }, 'hello');
    expect(records()[0]).toMatchObject({ level: 'info', name: 'test', tenantId: 't1', msg: 'hello' });
  });

  it.each([
    ['a top-level token', { token: SECRET }],
    ['a nested password', { user: { password: SECRET } }],
    ['a deeply nested refresh token', { a: { b: { c: { refreshToken: SECRET } } } }],
    ['an authorization header', { req: { headers: { authorization: `Bearer ${SECRET}` } } }],
    ['any header value', { headers: { 'x-custom': SECRET } }],
    ['a set-cookie header', { res: { 'set-cookie': [`sid=${SECRET}`] } }],
    ['a cookie', { cookie: `sid=${SECRET}` }],
    ['an environment', { child: { env: { ANYTHING: SECRET } } }],
    ['a client secret', { oauth: { client_secret: SECRET } }],
  ])('redacts %s', (_label, fields) => {
    const { logger, lines } = capture();
    logger.info(fields, 'with secret');
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(SECRET);
    expect(lines[0]).toContain(REDACTED);
  });

  it("redacts the app's secret config variables wherever they are logged", () => {
    const { logger, lines } = capture(['DATABASE_URL', 'GATEHOUSE_KEYS']);
    const config = {
      API_PORT: 4000,
      DATABASE_URL: `postgresql://app:${SECRET}@db/app`,
      GATEHOUSE_KEYS: `k1:${SECRET}`,
    };
    logger.info({ config }, 'config loaded');
    logger.info({ DATABASE_URL: config.DATABASE_URL }, 'top level');
    expect(lines.join('\n')).not.toContain(SECRET);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({
      config: { API_PORT: 4000, DATABASE_URL: REDACTED },
    });
  });

  it('scrubs secret config values embedded in any text, such as a driver error message', () => {
    const databaseUrl = 'postgresql://gatehouse_app:p%40ss-w0rd-xyz@db:5432/gatehouse';
    const keys =
      'k1:AAAABBBBCCCCDDDDEEEEFFFFGGGGHHHHIIIIJJJJKKK=,k2:ZZZZYYYYXXXXWWWWVVVVUUUUTTTTSSSSRRRRQQQQPPP=';
    const { logger, lines } = capture([], [databaseUrl, keys]);
    logger.error({ err: new Error(`connect failed for ${databaseUrl}`) }, 'pool error');
    logger.warn({ detail: 'auth failed with password p@ss-w0rd-xyz' }, 'decoded password');
    logger.info({ note: 'key ZZZZYYYYXXXXWWWWVVVVUUUUTTTTSSSSRRRRQQQQPPP= loaded' }, 'one key');
    const text = lines.join('\n');
    expect(lines).toHaveLength(3);
    for (const leaked of [
      databaseUrl,
      'p%40ss-w0rd-xyz',
      'p@ss-w0rd-xyz',
      'ZZZZYYYYXXXXWWWWVVVVUUUUTTTTSSSSRRRRQQQQPPP=',
    ]) {
      expect(text).not.toContain(leaked);
    }
    expect(text).toContain('connect failed for [redacted]');
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('keeps non-sensitive fields', () => {
    const { logger, records } = capture();
    logger.info({ route: '/v1/tenants/:id', statusCode: 200, tokenKind: 'agent' }, 'ok');
    expect(records()[0]).toMatchObject({ route: '/v1/tenants/:id', statusCode: 200, tokenKind: 'agent' });
  });

  it('classifies names whatever their case and separators, and the app secret names too', () => {
    const classify = createKeyClassifier(['GATEHOUSE_KEYS']);
    for (const name of [
      'set-cookie',
      'Set-Cookie',
      'X-API-KEY',
      'accessToken',
      'refresh_token',
      'gatehouseKeys',
    ])
      expect(classify(name)).toBe('sensitive');
    for (const name of ['headers', 'ENV', 'args', 'stderr']) expect(classify(name)).toBe('container');
    for (const name of ['tokenKind', 'tokenId', 'route', 'statusCode']) expect(classify(name)).toBe('plain');
  });
});

describe('NestLoggerAdapter', () => {
  it('writes Nest messages with their context, and errors with their stack', () => {
    const { logger, records } = capture();
    const adapter = new NestLoggerAdapter(logger);
    adapter.log('Mapped {/healthz, GET} route', 'RouterExplorer');
    adapter.error('boom', 'Error: boom\n    at x', 'ExceptionsHandler');
    adapter.warn({ token: SECRET }, 'Somewhere');
    const [log, error, warn] = records();
    expect(log).toMatchObject({
      level: 'info',
      context: 'RouterExplorer',
      msg: 'Mapped {/healthz, GET} route',
    });
    expect(error).toMatchObject({
      level: 'error',
      context: 'ExceptionsHandler',
      msg: 'boom',
      stack: 'Error: boom\n    at x',
    });
    expect(JSON.stringify(warn)).not.toContain(SECRET);
  });
});
