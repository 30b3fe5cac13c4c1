import { Writable } from 'node:stream';
import {
  Injectable,
  Module,
  type BeforeApplicationShutdown,
  type OnApplicationShutdown,
} from '@nestjs/common';
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

/** A provider two modules deep, as the apps' own lifecycles are: its last writes still need the resources. */
@Injectable()
class RecordsNestedShutdown implements OnApplicationShutdown {
  onApplicationShutdown(): void {
    order.push('nested shutdown hook');
  }
}

@Module({ providers: [RecordsNestedShutdown] })
class NestedModule {}

@Module({ imports: [NestedModule], providers: [RecordsShutdown] })
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
    expect(order).toEqual(['app hook', 'nested shutdown hook', 'resource']);
  });

  it('logs the routes it is told are quiet at debug, every other route at info, and measures both', async () => {
    const lines: { level: string; route?: string; msg: string }[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const app = await createServiceApp({
      logger: createLogger({ name: 'service-app-test', level: 'debug', destination: sink }),
      metrics: createMetricsRegistry({ app: 'probe' }),
      imports: [],
      readiness: {},
      bodyLimit: 1024,
      quietRoutes: ['/hot/:id'],
      beforeInit: (nest) => {
        const instance = nest.getHttpAdapter().getInstance();
        instance.get('/hot/:id', async () => ({ ok: true }));
        instance.get('/cold', async () => ({ ok: true }));
      },
    });
    try {
      await app.inject({ method: 'GET', url: '/hot/1' });
      await app.inject({ method: 'GET', url: '/cold' });
      const metrics = await app.inject({ method: 'GET', url: '/metrics' });
      expect(metrics.body).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/hot\/:id"/);
    } finally {
      await app.close();
    }
    const completed = lines.filter((line) => line.msg === 'request completed');
    expect(completed.find((line) => line.route === '/hot/:id')?.level).toBe('debug');
    expect(completed.find((line) => line.route === '/cold')?.level).toBe('info');
  });
});
