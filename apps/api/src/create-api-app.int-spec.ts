import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import { BootRefusedError, createLogger, parseConfig, type Logger } from '@gatehouse/platform';
import type { Database } from '@gatehouse/db';
import { createTestDatabase, testRedisUrl, type TestDatabase } from '@gatehouse/testing';
import { Body, Controller, Get, Module, Post } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Redis } from 'ioredis';
import { apiConfigSchema, type ApiConfig } from './config/api.config.js';
import { BODY_LIMIT_BYTES, createApiApp } from './create-api-app.js';
import { DATABASE, REDIS } from './infrastructure/infrastructure-tokens.js';

// The API has no POST route of its own yet (the identity issue adds them): this test-only module mounts one,
// so body parsing and limits are tested through the real Nest + Fastify stack.
@Controller('test-probe')
class ProbeController {
  @Post()
  echo(@Body() body: unknown): { received: unknown } {
    return { received: body };
  }

  @Post('fail')
  fail(): never {
    throw new Error('connect ECONNREFUSED postgresql://gatehouse_app:hunter2@db:5432/gatehouse');
  }
}

/** Lets a test hold a request in flight: the handler signals `entered`, then waits for `release`. */
const inFlight = { entered: () => undefined as void, release: Promise.resolve() };

@Controller('test-slow')
class SlowController {
  @Get()
  async slow(): Promise<{ done: true }> {
    inFlight.entered();
    await inFlight.release;
    return { done: true };
  }
}

@Module({ controllers: [ProbeController, SlowController] })
class ProbeModule {}

function configFor(env: Record<string, string>): ApiConfig {
  const parsed = parseConfig(apiConfigSchema, { LOG_LEVEL: 'info', ...env });
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.config;
}

function capturingLogger(): { logger: Logger; output: () => string } {
  let text = '';
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString('utf8');
      done();
    },
  });
  return { logger: createLogger({ name: 'api-test', level: 'info', destination }), output: () => text };
}

/** A local port nothing listens on: bind an ephemeral port, then release it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('api app (real Postgres and Redis)', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db.drop();
  });

  describe('with its dependencies up', () => {
    let app: NestFastifyApplication;
    let log: ReturnType<typeof capturingLogger>;

    beforeAll(async () => {
      log = capturingLogger();
      app = await createApiApp(configFor({ DATABASE_URL: db.appUrl, REDIS_URL: testRedisUrl() }), {
        logger: log.logger,
        imports: [ProbeModule],
      });
    });

    afterAll(async () => {
      await app.close();
    });

    it('answers /healthz', async () => {
      const response = await app.inject({ method: 'GET', url: '/healthz' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'ok' });
    });

    it('answers /readyz 200 when Postgres and Redis answer', async () => {
      const response = await app.inject({ method: 'GET', url: '/readyz' });
      expect(response.json()).toEqual({
        status: 'ok',
        checks: { postgres: { status: 'up' }, redis: { status: 'up' } },
      });
      expect(response.statusCode).toBe(200);
    });

    it('exposes Prometheus metrics, including the request histogram', async () => {
      await app.inject({ method: 'GET', url: '/healthz' });
      const response = await app.inject({ method: 'GET', url: '/metrics' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/plain');
      expect(response.body).toContain('process_cpu_user_seconds_total{app="api"}');
      expect(response.body).toMatch(
        /http_request_duration_seconds_count\{[^}]*route="\/healthz"[^}]*status_code="200"/,
      );
    });

    it('answers an unknown route with 404 problem+json, without echoing the URL', async () => {
      const response = await app.inject({ method: 'GET', url: '/nope?token=abc123' });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.json()).toMatchObject({
        status: 404,
        code: 'not_found',
        type: 'urn:gatehouse:problem:not_found',
      });
      expect(response.body).not.toContain('abc123');
    });

    it('parses a JSON body on a POST route', async () => {
      const response = await app.inject({ method: 'POST', url: '/test-probe', payload: { hello: 'world' } });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({ received: { hello: 'world' } });
    });

    it('answers malformed JSON with 400 malformed_json', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/test-probe',
        headers: { 'content-type': 'application/json' },
        payload: '{"hello": ',
      });
      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.json()).toMatchObject({ status: 400, code: 'malformed_json' });
    });

    it('answers an empty JSON body with 400 malformed_json', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/test-probe',
        headers: { 'content-type': 'application/json' },
        payload: '',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'malformed_json' });
    });

    it('refuses a prototype-poisoning body with 400, not 500', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/test-probe',
        headers: { 'content-type': 'application/json' },
        payload: '{"__proto__": {"admin": true}}',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ status: 400 });
    });

    it('answers a body over 1 MiB with 413 payload_too_large', async () => {
      const payload = JSON.stringify({ blob: 'x'.repeat(BODY_LIMIT_BYTES) });
      const response = await app.inject({
        method: 'POST',
        url: '/test-probe',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(response.statusCode).toBe(413);
      expect(response.json()).toMatchObject({ status: 413, code: 'payload_too_large' });
    });

    it('answers an unsupported content type with 415', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/test-probe',
        headers: { 'content-type': 'application/xml' },
        payload: '<a/>',
      });
      expect(response.statusCode).toBe(415);
      expect(response.json()).toMatchObject({ code: 'unsupported_media_type' });
    });

    it('answers an unexpected error with a generic 500 and logs it without the client seeing it', async () => {
      const response = await app.inject({ method: 'POST', url: '/test-probe/fail', payload: {} });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toMatchObject({ status: 500, code: 'internal' });
      expect(response.body).not.toContain('ECONNREFUSED');
      expect(response.body).not.toContain('hunter2');
      expect(log.output()).toContain('"msg":"request failed"');
    });

    it('logs requests by route pattern, without query strings or headers', async () => {
      await app.inject({
        method: 'POST',
        url: '/test-probe?api_key=querysecret',
        headers: { authorization: 'Bearer headersecret' },
        payload: {},
      });
      const output = log.output();
      expect(output).toContain('"route":"/test-probe"');
      expect(output).not.toContain('querysecret');
      expect(output).not.toContain('headersecret');
    });
  });

  it('answers /readyz 503 naming Redis when Redis is unreachable, while /healthz stays 200', async () => {
    const app = await createApiApp(
      configFor({
        DATABASE_URL: db.appUrl,
        REDIS_URL: `redis://127.0.0.1:${await closedPort()}`,
        LOG_LEVEL: 'silent',
      }),
      { logger: createLogger({ name: 'api-test', level: 'silent' }) },
    );
    try {
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({
        status: 'unavailable',
        checks: {
          postgres: { status: 'up' },
          redis: { status: 'down', reason: expect.stringMatching(/^(failed|timeout)$/) },
        },
      });
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('drains an in-flight request on close, then closes the Postgres pool and Redis', async () => {
    const app = await createApiApp(configFor({ DATABASE_URL: db.appUrl, REDIS_URL: testRedisUrl() }), {
      logger: createLogger({ name: 'api-test', level: 'silent' }),
      imports: [ProbeModule],
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const url = await app.getUrl();
    let release = (): void => undefined;
    inFlight.release = new Promise<void>((resolve) => {
      release = resolve;
    });
    const entered = new Promise<void>((resolve) => {
      inFlight.entered = resolve;
    });
    const request = fetch(`${url}/test-slow`);
    await entered;
    let closed = false;
    const closing = app.close().then(() => {
      closed = true;
    });
    // Close waits for the request; a later event-loop turn shows it has not finished on its own.
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    release();
    const response = await request;
    expect(response.status).toBe(200);
    // Said during shutdown so the keep-alive socket ends with this response instead of holding close open.
    expect(response.headers.get('connection')).toBe('close');
    expect(await response.json()).toEqual({ done: true });
    await closing;
    expect(app.get<Redis>(REDIS).status).toBe('end');
    await expect(app.get<Database>(DATABASE).ping()).rejects.toThrow();
  });

  it('refuses to boot, with one line, when DATABASE_URL is a superuser', async () => {
    const boot = createApiApp(configFor({ DATABASE_URL: db.adminUrl, REDIS_URL: testRedisUrl() }), {
      logger: createLogger({ name: 'api-test', level: 'silent' }),
    });
    await expect(boot).rejects.toBeInstanceOf(BootRefusedError);
    await expect(boot).rejects.toThrow(
      /^api: Refusing to start: database role "postgres" is or can become a superuser/,
    );
    const error: unknown = await boot.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BootRefusedError);
    expect((error as BootRefusedError).message).not.toContain('\n');
  });

  it('refuses to boot when DATABASE_URL is the table owner', async () => {
    const boot = createApiApp(configFor({ DATABASE_URL: db.ownerUrl, REDIS_URL: testRedisUrl() }), {
      logger: createLogger({ name: 'api-test', level: 'silent' }),
    });
    await expect(boot).rejects.toThrow(/owns tables/);
  });
});
