import { planAppLaunches, type LaunchContext } from './app-launch.plan';
import { StartFailure } from './start-failure';

const keyRing = { keys: `dev-1:${Buffer.alloc(32, 7).toString('base64')}`, activeKeyId: 'dev-1' };

function context(env: Record<string, string | undefined> = {}): LaunchContext {
  return {
    root: '/repo',
    env: { PATH: '/usr/bin', ...env },
    databaseUrl: 'postgresql://gatehouse_app:pw@127.0.0.1:5432/gatehouse',
    redisUrl: 'redis://127.0.0.1:6380',
    keyRing,
  };
}

function launch(name: string, env?: Record<string, string | undefined>) {
  const found = planAppLaunches(context(env)).find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no launch for ${name}`);
  return found;
}

describe('planAppLaunches', () => {
  it('launches the four apps, the Node ones from dist and the dashboard through next directly', () => {
    const launches = planAppLaunches(context());
    expect(launches.map((l) => l.name)).toEqual(['api', 'worker', 'gateway', 'dashboard']);
    expect(launch('api').args).toEqual(['/repo/dist/apps/api/src/main.js']);
    expect(launch('worker').args).toEqual(['/repo/dist/apps/worker/src/main.js']);
    expect(launch('gateway').args).toEqual(['/repo/dist/apps/gateway/src/main.js']);
    const dashboard = launch('dashboard');
    expect(dashboard.command).toBe('/repo/node_modules/.bin/next');
    expect(dashboard.args).toEqual([
      'start',
      '/repo/apps/dashboard',
      '--port',
      '3000',
      '--hostname',
      '127.0.0.1',
    ]);
    expect(dashboard.healthUrl).toBe('http://127.0.0.1:3000/api/healthz');
  });

  it('gives the database URL and the key ring to the API only', () => {
    const api = launch('api');
    expect(api.env['DATABASE_URL']).toBe('postgresql://gatehouse_app:pw@127.0.0.1:5432/gatehouse');
    expect(api.env['GATEHOUSE_KEYS']).toBe(keyRing.keys);
    for (const name of ['worker', 'gateway', 'dashboard']) {
      expect(launch(name).env['DATABASE_URL']).toBeUndefined();
      expect(launch(name).env['GATEHOUSE_KEYS']).toBeUndefined();
    }
  });

  it('strips another app’s variables from the inherited environment, but keeps unrelated ones', () => {
    const worker = launch('worker', { DATABASE_URL: 'postgresql://someone@db/x', TZ: 'UTC' });
    expect(worker.env['DATABASE_URL']).toBeUndefined();
    expect(worker.env['TZ']).toBe('UTC');
    expect(worker.env['PATH']).toBe('/usr/bin');
  });

  it('starts the worker and the gateway only after the API answers its health check', () => {
    expect(launch('api').startsAfter).toEqual([]);
    expect(launch('worker').startsAfter).toEqual(['api']);
    expect(launch('gateway').startsAfter).toEqual(['api']);
    expect(launch('dashboard').startsAfter).toEqual([]);
  });

  it('points every app at the API and Redis npm start provides, and states each port explicitly', () => {
    for (const name of ['worker', 'gateway', 'dashboard']) {
      expect(launch(name).env['API_URL']).toBe('http://127.0.0.1:4000');
    }
    expect(launch('worker').env['REDIS_URL']).toBe('redis://127.0.0.1:6380');
    expect(launch('api').env['API_PORT']).toBe('4000');
    expect(launch('api').healthUrl).toBe('http://127.0.0.1:4000/healthz');
    expect(launch('worker').env['WORKER_PORT']).toBe(String(launch('worker').port));
  });

  it('lets the user’s own values win, and follows a moved API port everywhere', () => {
    const env = { API_PORT: '4500', REDIS_URL: 'redis://elsewhere:6379', LOG_LEVEL: 'debug' };
    expect(launch('api', env).port).toBe(4500);
    expect(launch('api', env).env['PUBLIC_URL']).toBe('http://127.0.0.1:4500');
    expect(launch('gateway', env).env['API_URL']).toBe('http://127.0.0.1:4500');
    expect(launch('worker', env).env['REDIS_URL']).toBe('redis://elsewhere:6379');
    expect(launch('api', env).env['LOG_LEVEL']).toBe('debug');
  });

  it('runs the Node apps in development unless told otherwise, and leaves NODE_ENV to next start', () => {
    expect(launch('api').env['NODE_ENV']).toBe('development');
    expect(launch('dashboard').env['NODE_ENV']).toBeUndefined();
  });

  it('stops with the app’s one-line config message when a variable is bad', () => {
    expect(() => planAppLaunches(context({ WORKER_PORT: 'seventy' }))).toThrow(StartFailure);
    expect(() => planAppLaunches(context({ WORKER_PORT: 'seventy' }))).toThrow(
      /^worker: invalid configuration: WORKER_PORT/,
    );
  });
  it('gives the minted worker token to the worker only and the gateway token to the gateway only', () => {
    const launches = planAppLaunches({
      ...context(),
      serviceTokens: { workerToken: 'ghw_minted', gatewayToken: 'ghg_minted' },
    });
    const env = (name: string) => launches.find((l) => l.name === name)?.env ?? {};
    expect(env('worker')['WORKER_TOKEN']).toBe('ghw_minted');
    expect(env('gateway')['GATEWAY_TOKEN']).toBe('ghg_minted');
    for (const name of ['api', 'gateway', 'dashboard']) expect(env(name)['WORKER_TOKEN']).toBeUndefined();
    for (const name of ['api', 'worker', 'dashboard']) expect(env(name)['GATEWAY_TOKEN']).toBeUndefined();
  });
  it('tells the dashboard where the gateway is and the API where the dashboard is, following moved ports', () => {
    expect(launch('dashboard').env['GATEWAY_URL']).toBe('http://127.0.0.1:4200');
    expect(launch('api').env['DASHBOARD_URL']).toBe('http://127.0.0.1:3000');
    const moved = { GATEWAY_PORT: '4300', DASHBOARD_PORT: '3100' };
    expect(launch('dashboard', moved).env['GATEWAY_URL']).toBe('http://127.0.0.1:4300');
    expect(launch('api', moved).env['DASHBOARD_URL']).toBe('http://127.0.0.1:3100');
    expect(launch('dashboard', { GATEWAY_URL: 'https://gw.example.com' }).env['GATEWAY_URL']).toBe(
      'https://gw.example.com',
    );
  });
});
