import { join } from 'node:path';
import { parseConfig, type ConfigSchema, type Env } from '@gatehouse/platform';
import { apiConfigSchema } from '../../apps/api/src/config/api.config';
import { gatewayConfigSchema } from '../../apps/gateway/src/config/gateway.config';
import { workerConfigSchema } from '../../apps/worker/src/config/worker.config';
import { dashboardConfigSchema } from '../../apps/dashboard/src/config/dashboard.config';
import { StartFailure } from './start-failure';

export type AppName = 'api' | 'worker' | 'gateway' | 'dashboard';

/** What `npm start` itself provides to the apps (everything else comes from the environment or defaults). */
export type LaunchContext = {
  root: string;
  env: Env;
  databaseUrl: string;
  redisUrl: string;
  keyRing: { keys: string; activeKeyId: string } | undefined;
  /** Minted by npm start for the worker and the gateway (scripts/start/service-tokens.provisioner.ts). */
  serviceTokens?: { workerToken: string | undefined; gatewayToken: string | undefined };
};

export type AppLaunch = {
  name: AppName;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  host: string;
  port: number;
  portVariable: string;
  /** Polled until it answers 2xx. */
  healthUrl: string;
  /** Printed for the user once everything is up. */
  url: string;
  /**
   * Apps that must answer their health check before this one is spawned: the worker and the gateway hold the
   * revocation ledger over the API, and one started first stays unready until the API is there (decision 0129).
   */
  startsAfter: AppName[];
};

type AppSpec = {
  name: AppName;
  schema: ConfigSchema;
  /** Variables npm start sets for this app, unless the user already set them. */
  provided(
    context: LaunchContext,
    ports: Readonly<Record<AppName, number>>,
  ): Record<string, string | undefined>;
  hostVariable: string | undefined;
  portVariable: string;
  healthPath: string;
  startsAfter: AppName[];
  command(root: string, host: string, port: number): { command: string; args: string[] };
};

function nodeEntry(app: string) {
  return (root: string) => ({
    command: process.execPath,
    args: [join(root, 'dist', 'apps', app, 'src', 'main.js')],
  });
}

function keyRingVariables(context: LaunchContext): Record<string, string | undefined> {
  return { GATEHOUSE_KEYS: context.keyRing?.keys, GATEHOUSE_ACTIVE_KEY_ID: context.keyRing?.activeKeyId };
}

const APP_SPECS: readonly AppSpec[] = [
  {
    name: 'api',
    schema: apiConfigSchema,
    provided: (context, ports) => ({
      DATABASE_URL: context.databaseUrl,
      REDIS_URL: context.redisUrl,
      PUBLIC_URL: `http://127.0.0.1:${ports.api}`,
      // The dashboard's server forwards the browser's address; only it (on loopback) is believed.
      TRUSTED_PROXIES: '127.0.0.1',
      // An OAuth sign-in started in the dashboard comes back to its Connections page, not to a JSON answer.
      DASHBOARD_URL: `http://127.0.0.1:${ports.dashboard}`,
      ...keyRingVariables(context),
    }),
    hostVariable: 'API_HOST',
    startsAfter: [],
    portVariable: 'API_PORT',
    healthPath: '/healthz',
    command: nodeEntry('api'),
  },
  {
    name: 'worker',
    schema: workerConfigSchema,
    provided: (context, ports) => ({
      REDIS_URL: context.redisUrl,
      API_URL: `http://127.0.0.1:${ports.api}`,
      WORKER_TOKEN: context.serviceTokens?.workerToken,
    }),
    hostVariable: 'WORKER_HOST',
    startsAfter: ['api'],
    portVariable: 'WORKER_PORT',
    healthPath: '/healthz',
    command: nodeEntry('worker'),
  },
  {
    name: 'gateway',
    schema: gatewayConfigSchema,
    provided: (context, ports) => ({
      REDIS_URL: context.redisUrl,
      API_URL: `http://127.0.0.1:${ports.api}`,
      GATEWAY_TOKEN: context.serviceTokens?.gatewayToken,
    }),
    hostVariable: 'GATEWAY_HOST',
    startsAfter: ['api'],
    portVariable: 'GATEWAY_PORT',
    healthPath: '/healthz',
    command: nodeEntry('gateway'),
  },
  {
    name: 'dashboard',
    schema: dashboardConfigSchema,
    provided: (_context, ports) => ({
      API_URL: `http://127.0.0.1:${ports.api}`,
      // The workspace pages show this endpoint and a client config for it (else: "not configured").
      GATEWAY_URL: `http://127.0.0.1:${ports.gateway}`,
    }),
    hostVariable: undefined,
    startsAfter: [],
    portVariable: 'DASHBOARD_PORT',
    healthPath: '/api/healthz',
    // `next` directly, never through npx: killing an npx wrapper orphans the server it started.
    command: (root, host, port) => ({
      command: join(root, 'node_modules', '.bin', 'next'),
      args: ['start', join(root, 'apps', 'dashboard'), '--port', String(port), '--hostname', host],
    }),
  },
];

function schemaKeys(schema: ConfigSchema): string[] {
  return Object.keys(schema.shape);
}

/** The app's port from the environment or its schema's default; a bad value is reported by the full check. */
function readPort(spec: AppSpec, env: Env): number {
  const field = spec.schema.shape[spec.portVariable];
  const raw = env[spec.portVariable];
  const parsed = field?.safeParse(raw === '' ? undefined : raw);
  return parsed?.success && typeof parsed.data === 'number' ? parsed.data : 0;
}

function readHost(spec: AppSpec, env: Env): string {
  if (!spec.hostVariable) return '127.0.0.1';
  const value = env[spec.hostVariable];
  return value && value.length > 0 ? value : '127.0.0.1';
}

/**
 * Each app's command and environment, checked against that app's own config schema before anything starts,
 * so a bad variable stops `npm start` with the app's one-line message instead of a crash loop. An app gets the
 * variables of its schema (the user's values win over ours) and never another app's: only the API holds
 * DATABASE_URL and the key ring.
 */
export function planAppLaunches(context: LaunchContext): AppLaunch[] {
  const ports = Object.fromEntries(
    APP_SPECS.map((spec) => [spec.name, readPort(spec, context.env)]),
  ) as Record<AppName, number>;
  const ownedByAnyApp = new Set(APP_SPECS.flatMap((spec) => schemaKeys(spec.schema)));
  return APP_SPECS.map((spec) => {
    const own = new Set(schemaKeys(spec.schema));
    const env: NodeJS.ProcessEnv = {};
    for (const [name, value] of Object.entries(context.env)) {
      if (value !== undefined && (!ownedByAnyApp.has(name) || own.has(name))) env[name] = value;
    }
    for (const [name, value] of Object.entries(spec.provided(context, ports))) {
      if (own.has(name) && value !== undefined && !env[name]) env[name] = value;
    }
    // `next start` sets NODE_ENV itself; the Node apps run in development mode unless told otherwise.
    if (spec.name !== 'dashboard') env['NODE_ENV'] ??= 'development';
    const parsed = parseConfig(spec.schema, env);
    if (!parsed.ok) throw new StartFailure(`${spec.name}: ${parsed.message}`);
    const host = readHost(spec, env);
    const port = ports[spec.name];
    // Stated explicitly, so the app listens exactly where the health check and the summary look.
    env[spec.portVariable] = String(port);
    if (spec.hostVariable) env[spec.hostVariable] = host;
    const probeHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
    const { command, args } = spec.command(context.root, host, port);
    return {
      name: spec.name,
      command,
      args,
      env,
      host,
      port,
      portVariable: spec.portVariable,
      healthUrl: `http://${probeHost}:${port}${spec.healthPath}`,
      url: `http://${probeHost}:${port}`,
      startsAfter: [...spec.startsAfter],
    };
  });
}
