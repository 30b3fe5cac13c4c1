import { createServer, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createLogger, parseConfig } from '@gatehouse/platform';
import { createTestDatabase, testRedisUrl, type TestDatabase } from '@gatehouse/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
// The gateway's readiness depends on the real API, so this test stands one up. Apps never import each other
// in production code; a test reaching for its real peer is the one exception.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { apiConfigSchema } from '../../api/src/config/api.config.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createApiApp } from '../../api/src/create-api-app.js';
import { gatewayConfigSchema, type GatewayConfig } from './config/gateway.config.js';
import { GATEWAY_BODY_LIMIT_BYTES, createGatewayApp } from './create-gateway-app.js';

const silent = createLogger({ name: 'gateway-test', level: 'silent' });

function gatewayConfig(env: Record<string, string>): GatewayConfig {
  const parsed = parseConfig(gatewayConfigSchema, { LOG_LEVEL: 'silent', ...env });
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.config;
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('gateway app (real Redis, real API)', () => {
  let db: TestDatabase;
  let api: NestFastifyApplication;
  let apiUrl: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    const parsed = parseConfig(apiConfigSchema, {
      DATABASE_URL: db.appUrl,
      REDIS_URL: testRedisUrl(),
      LOG_LEVEL: 'silent',
    });
    if (!parsed.ok) throw new Error(parsed.message);
    api = await createApiApp(parsed.config, { logger: silent });
    await api.listen({ host: '127.0.0.1', port: 0 });
    apiUrl = await api.getUrl();
  });

  afterAll(async () => {
    await api.close();
    await db.drop();
  });

  describe('with Redis and the API up', () => {
    let gateway: NestFastifyApplication;
    let logs = '';

    beforeAll(async () => {
      const destination = new Writable({
        write(chunk: Buffer, _encoding, done) {
          logs += chunk.toString('utf8');
          done();
        },
      });
      gateway = await createGatewayApp(gatewayConfig({ REDIS_URL: testRedisUrl(), API_URL: apiUrl }), {
        logger: createLogger({ name: 'gateway-test', level: 'info', destination }),
      });
      // A test-only POST route exercises body parsing and limits apart from the MCP endpoint's own checks.
      const http = gateway.getHttpAdapter().getInstance();
      http.post('/test-probe', async (request) => ({ received: request.body }));
      http.post('/test-probe/fail', async () => {
        throw new Error('upstream said: token=sk-upstream-secret');
      });
      await http.ready();
    });

    afterAll(async () => {
      await gateway.close();
    });

    it('answers /healthz', async () => {
      const response = await gateway.inject({ method: 'GET', url: '/healthz' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'ok' });
    });

    it('answers /readyz 200 when Redis and the API answer', async () => {
      const response = await gateway.inject({ method: 'GET', url: '/readyz' });
      expect(response.json()).toEqual({
        status: 'ok',
        checks: { redis: { status: 'up' }, api: { status: 'up' } },
      });
      expect(response.statusCode).toBe(200);
    });

    it('exposes Prometheus metrics', async () => {
      await gateway.inject({ method: 'GET', url: '/healthz' });
      const response = await gateway.inject({ method: 'GET', url: '/metrics' });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('process_cpu_user_seconds_total{app="gateway"}');
      expect(response.body).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/healthz"/);
    });

    it('answers 404 problem+json beside the workspace endpoint (/mcp/w/:workspaceId)', async () => {
      const response = await gateway.inject({
        method: 'POST',
        url: '/mcp/5d2c1b0a-0000-4000-8000-000000000000',
        payload: {},
      });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.json()).toMatchObject({ code: 'not_found' });
    });

    it('measures the MCP endpoints but logs no info line per MCP request (the hot path)', async () => {
      const response = await gateway.inject({
        method: 'POST',
        url: '/mcp/w/5d2c1b0a-0000-4000-8000-000000000000',
        headers: { host: '127.0.0.1' },
        payload: {},
      });
      expect(response.statusCode).toBe(401);
      const metrics = await gateway.inject({ method: 'GET', url: '/metrics' });
      expect(metrics.body).toMatch(
        /http_request_duration_seconds_count\{[^}]*route="\/mcp\/w\/:workspaceId"/,
      );
      expect(logs).not.toContain('"route":"/mcp/w/:workspaceId"');
      // The per-server passthrough is the same hot path.
      const passthrough = await gateway.inject({
        method: 'POST',
        url: '/mcp/w/5d2c1b0a-0000-4000-8000-000000000000/s/everything',
        headers: { host: '127.0.0.1' },
        payload: {},
      });
      expect(passthrough.statusCode).toBe(401);
      expect(logs).not.toContain('"route":"/mcp/w/:workspaceId/s/:server"');
      // Other routes still log their request line at info.
      await gateway.inject({ method: 'POST', url: '/test-probe', payload: {} });
      expect(logs).toContain('"route":"/test-probe"');
    });

    it('answers malformed JSON with 400 malformed_json', async () => {
      const response = await gateway.inject({
        method: 'POST',
        url: '/test-probe',
        headers: { 'content-type': 'application/json' },
        payload: '{"jsonrpc": ',
      });
      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.json()).toMatchObject({ status: 400, code: 'malformed_json' });
    });

    it('answers a body over 1 MiB with 413 payload_too_large', async () => {
      const response = await gateway.inject({
        method: 'POST',
        url: '/test-probe',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ blob: 'x'.repeat(GATEWAY_BODY_LIMIT_BYTES) }),
      });
      expect(response.statusCode).toBe(413);
      expect(response.json()).toMatchObject({ code: 'payload_too_large' });
    });

    it('answers an unexpected error with a generic 500 and logs it', async () => {
      const response = await gateway.inject({ method: 'POST', url: '/test-probe/fail', payload: {} });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toMatchObject({ code: 'internal' });
      expect(response.body).not.toContain('sk-upstream-secret');
      expect(logs).toContain('"msg":"request failed"');
    });
  });

  it('answers /readyz 503 naming each dependency that is down', async () => {
    const redisDown = await createGatewayApp(
      gatewayConfig({ REDIS_URL: `redis://127.0.0.1:${await closedPort()}`, API_URL: apiUrl }),
      {
        logger: silent,
      },
    );
    const apiDown = await createGatewayApp(
      gatewayConfig({ REDIS_URL: testRedisUrl(), API_URL: `http://127.0.0.1:${await closedPort()}` }),
      { logger: silent },
    );
    try {
      const noRedis = await redisDown.inject({ method: 'GET', url: '/readyz' });
      expect(noRedis.statusCode).toBe(503);
      expect(noRedis.json()).toMatchObject({
        status: 'unavailable',
        checks: { redis: { status: 'down' }, api: { status: 'up' } },
      });
      const noApi = await apiDown.inject({ method: 'GET', url: '/readyz' });
      expect(noApi.statusCode).toBe(503);
      expect(noApi.json()).toMatchObject({
        checks: { redis: { status: 'up' }, api: { status: 'down', reason: 'failed' } },
      });
    } finally {
      await Promise.all([redisDown.close(), apiDown.close()]);
    }
  }, 20_000);
});
