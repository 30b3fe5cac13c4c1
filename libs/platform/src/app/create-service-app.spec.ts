import { Injectable, Module, type BeforeApplicationShutdown } from '@nestjs/common';
import { createLogger } from '../logger/create-logger.js';
import { createMetricsRegistry } from '../metrics/metrics-registry.js';
import { createServiceApp } from './create-service-app.js';

const logger = createLogger({ name: 'service-app-test', level: 'silent' });
const order: string[] = [];

@Injectable()
class RecordsShutdown implements BeforeApplicationShutdown {
  beforeApplicationShutdown(): void {
    order.push('app hook');
  }
}

@Module({ providers: [RecordsShutdown] })
class ProbeModule {}

describe('createServiceApp', () => {
  it('serves /healthz, /readyz and /metrics, answers problem+json, and closes its resources last', async () => {
    order.length = 0;
    const app = await createServiceApp({
      logger,
      metrics: createMetricsRegistry({ app: 'probe' }),
      imports: [ProbeModule],
      readiness: {
        up: async () => undefined,
        down: async () => {
          throw new Error('connection refused');
        },
      },
      closeOnShutdown: [{ name: 'probe', close: async () => void order.push('resource') }],
      bodyLimit: 1024,
      beforeInit: (nest) => {
        nest
          .getHttpAdapter()
          .getInstance()
          .get('/probe-fail', async () => {
            throw new Error('secret=sk-should-not-leak');
          });
      },
    });
    try {
      expect((await app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.headers['cache-control']).toBe('no-store');
      expect(ready.json()).toEqual({
        status: 'unavailable',
        checks: { up: { status: 'up' }, down: { status: 'down', reason: 'failed' } },
      });
      const metrics = await app.inject({ method: 'GET', url: '/metrics' });
      expect(metrics.body).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/readyz"/);
      const missing = await app.inject({ method: 'GET', url: '/nope' });
      expect(missing.statusCode).toBe(404);
      expect(missing.headers['content-type']).toContain('application/problem+json');
      expect(missing.json()).toMatchObject({ code: 'not_found' });
      const failed = await app.inject({ method: 'GET', url: '/probe-fail' });
      expect(failed.statusCode).toBe(500);
      expect(failed.json()).toMatchObject({ code: 'internal' });
      expect(failed.body).not.toContain('sk-should-not-leak');
    } finally {
      await app.close();
    }
    expect(order).toEqual(['app hook', 'resource']);
  });
});
