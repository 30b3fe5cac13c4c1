import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeConfig, parseConfig, type ConfigSchema } from '@gatehouse/platform';
import { apiConfigSchema } from '../apps/api/src/config/api.config';
import { dashboardConfigSchema } from '../apps/dashboard/src/config/dashboard.config';
import { gatewayConfigSchema } from '../apps/gateway/src/config/gateway.config';
import { workerConfigSchema } from '../apps/worker/src/config/worker.config';
import {
  interpolate,
  nodeEntryOf,
  readComposeFile,
  serviceEnvironment,
  sourceOfBuiltFile,
  type ComposeService,
} from './compose/compose-file';
import { migrateConfigSchema } from './migrate';

const root = join(__dirname, '..');
const compose = readComposeFile(readFileSync(join(root, 'docker-compose.yml'), 'utf8'));
const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');

/** What an operator exports before `docker compose up` (the README's two lines). */
const operatorEnv = {
  GATEHOUSE_KEYS: `k1:${randomBytes(32).toString('base64')}`,
  GATEHOUSE_ACTIVE_KEY_ID: 'k1',
};

const services: readonly {
  name: string;
  schema: ConfigSchema;
  portVariable?: string;
  healthPath?: string;
}[] = [
  { name: 'api', schema: apiConfigSchema, portVariable: 'API_PORT', healthPath: '/healthz' },
  { name: 'worker', schema: workerConfigSchema, portVariable: 'WORKER_PORT', healthPath: '/healthz' },
  { name: 'gateway', schema: gatewayConfigSchema, portVariable: 'GATEWAY_PORT', healthPath: '/healthz' },
  {
    name: 'dashboard',
    schema: dashboardConfigSchema,
    portVariable: 'DASHBOARD_PORT',
    healthPath: '/api/healthz',
  },
  { name: 'migrate', schema: migrateConfigSchema },
];

function service(name: string): ComposeService {
  const found = compose.services[name];
  if (!found) throw new Error(`docker-compose.yml has no service ${name}`);
  return found;
}

describe('docker-compose.yml', () => {
  describe.each(services)('service $name', ({ name, schema, portVariable, healthPath }) => {
    const env = () => serviceEnvironment(service(name), operatorEnv);

    it('has an environment its config schema accepts', () => {
      const result = parseConfig(schema, env());
      expect(result.ok ? 'ok' : result.message).toBe('ok');
    });

    it('sets every required variable and no variable the app does not know', () => {
      const known = Object.keys(schema.shape);
      const set = Object.keys(env());
      expect(set.filter((variable) => !known.includes(variable))).toEqual([]);
      const required = describeConfig(schema)
        .filter((row) => row.required)
        .map((row) => row.name);
      expect(required.filter((variable) => !set.includes(variable))).toEqual([]);
    });

    it('runs an entry file that the build produces from this repository', () => {
      const command = service(name).command ?? [];
      const entry = nodeEntryOf(command);
      expect(entry).toBeDefined();
      if (name === 'dashboard') {
        // next build writes apps/dashboard/server.js into .next/standalone, which the image copies to /app.
        expect(entry).toBe('apps/dashboard/server.js');
        expect(readFileSync(join(root, 'apps/dashboard/next.config.ts'), 'utf8')).toMatch(
          /output: 'standalone'/,
        );
        expect(dockerfile).toMatch(/DASHBOARD_STANDALONE=1 node_modules\/\.bin\/next build apps\/dashboard/);
        expect(dockerfile).toContain('/src/apps/dashboard/.next/standalone ./');
        expect(existsSync(join(root, 'apps/dashboard/src/app/page.tsx'))).toBe(true);
        return;
      }
      const source = sourceOfBuiltFile(entry ?? '');
      expect(source).toBe(name === 'migrate' ? 'scripts/migrate.ts' : `apps/${name}/src/main.ts`);
      expect(existsSync(join(root, source ?? 'missing'))).toBe(true);
    });

    it('builds a Dockerfile stage that exists', () => {
      const target = service(name).build?.target;
      expect(target).toBeDefined();
      expect(dockerfile).toMatch(new RegExp(`^FROM \\S+ AS ${target ?? 'missing'}$`, 'm'));
    });

    if (portVariable && healthPath) {
      it('health-checks and publishes the port the app listens on', () => {
        const port = env()[portVariable];
        expect(port).toMatch(/^\d+$/);
        const check = service(name).healthcheck?.test.join(' ') ?? '';
        expect(check).toContain(`http://127.0.0.1:${port}${healthPath}`);
        for (const mapping of service(name).ports ?? []) expect(mapping.endsWith(`:${port}`)).toBe(true);
      });
    }
  });

  it('points every API client at the api service and its port', () => {
    const apiPort = serviceEnvironment(service('api'), operatorEnv)['API_PORT'];
    for (const name of ['worker', 'gateway', 'dashboard']) {
      const apiUrl = new URL(serviceEnvironment(service(name), operatorEnv)['API_URL'] ?? 'http://missing');
      expect(`${name} -> ${apiUrl.hostname}:${apiUrl.port}`).toBe(`${name} -> api:${apiPort}`);
    }
  });

  it('gives the app role to the API and the owner role to the migrate job, with matching passwords', () => {
    const api = new URL(serviceEnvironment(service('api'), operatorEnv)['DATABASE_URL'] ?? '');
    const migrate = serviceEnvironment(service('migrate'), operatorEnv);
    const owner = new URL(migrate['MIGRATION_DATABASE_URL'] ?? '');
    expect(api.username).toBe('gatehouse_app');
    expect(owner.username).toBe('gatehouse_owner');
    expect(api.pathname).toBe(owner.pathname);
    expect(decodeURIComponent(api.password)).toBe(migrate['DATABASE_APP_PASSWORD']);
    expect(decodeURIComponent(owner.password)).toBe(migrate['DATABASE_OWNER_PASSWORD']);
  });

  it('refuses to start without an operator key ring (no key is committed)', () => {
    expect(() => serviceEnvironment(service('api'), {})).toThrow(/GATEHOUSE_KEYS/);
  });
});

describe('interpolate', () => {
  it('implements the Compose forms the file uses', () => {
    expect(interpolate('a-${X:-d}-$$HOME', {})).toEqual({ ok: true, value: 'a-d-$HOME' });
    expect(interpolate('${X:-d}', { X: '' })).toEqual({ ok: true, value: 'd' });
    expect(interpolate('${X-d}', { X: '' })).toEqual({ ok: true, value: '' });
    expect(interpolate('${X}', { X: 'v' })).toEqual({ ok: true, value: 'v' });
    expect(interpolate('${X:?need X}', {})).toEqual({
      ok: false,
      reason: 'required_variable_missing',
      variable: 'X',
    });
  });
});
