import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { ROLE_SCOPES } from '@gatehouse/commands';
import { createDatabase } from '@gatehouse/db';
import { createLogger, parseConfig, type Logger } from '@gatehouse/platform';
import { createTestTenant, createTestUser, createTestWorkspace } from '@gatehouse/testing';
import Fastify from 'fastify';
import { Pool } from 'pg';
import { mintApiToken } from '../apps/api/src/auth/mint-api-token';
import { apiConfigSchema, type ApiConfig } from '../apps/api/src/config/api.config';
import { createApiApp } from '../apps/api/src/create-api-app';
import type { LoadOptions, LoadSummary } from './autocannon.runner';
import { fixed, type BenchContext, type BenchSection } from './bench-context';

// Authenticated request throughput of a simple read command through the whole API (bearer token looked up by
// hash through the SECURITY DEFINER function, principal and scopes, an RLS transaction with the tenant set,
// zod on the way in and out, problem+json handling, request logging and metrics) against a plain Fastify route
// with no authentication that returns the same rows from one pg query. Same process, same database, same
// rows, measured in the same run over real loopback sockets, with the load generator in its own process.

const WORKSPACES = 20;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = 2;
// Each target is warmed up this long before anything is measured: with 1 s the API measured 2.8 ms of CPU per
// request where its steady state is 1.8 ms (the JIT, not the code).
const WARMUP_SECONDS = Math.max(10, Number(process.env.BENCH_WARMUP_S ?? 10));

interface WorkspaceRow {
  id: string;
  name: string;
  repository_identity: string | null;
  generation: number;
  trusted: boolean;
  created_at: Date;
  updated_at: Date;
}

/** Runs autocannon in a child process (bench/autocannon.runner.ts) and returns its summary. */
function load(options: LoadOptions): Promise<LoadSummary> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(__dirname, 'autocannon.runner.js')], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`load generator exited with ${code}`));
      try {
        resolve(JSON.parse(output) as LoadSummary);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    child.stdin.end(JSON.stringify(options));
  });
}

/** A load run plus the CPU this process (the servers; the load generator is a child) spent on it. */
export interface MeasuredLoad extends LoadSummary {
  readonly cpuMsPerRequest: number;
}

// The servers' CPU per request moves much less with other work on the machine than requests/s, which on a
// shared, loaded machine swings with whatever else is running.
export async function measuredLoad(options: LoadOptions): Promise<MeasuredLoad> {
  const before = process.cpuUsage();
  const summary = await load(options);
  const used = process.cpuUsage(before);
  return { ...summary, cpuMsPerRequest: (used.user + used.system) / 1000 / Math.max(1, summary.requests) };
}

function discard(): Writable {
  return new Writable({ write: (_chunk, _encoding, done) => done() });
}

/** A running API on loopback: where it answers and how to stop it. */
export interface RunningApi {
  readonly origin: string;
  close(): Promise<void>;
}

export type StartApi = (config: ApiConfig, logger: Logger) => Promise<RunningApi>;

/** The real thing: createApiApp, listening on an ephemeral loopback port. */
export const startFullApi: StartApi = async (config, logger) => {
  const app = await createApiApp(config, { logger });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => app.close() };
};

export async function benchAuthThroughput(
  ctx: BenchContext,
  startApi: StartApi = startFullApi,
): Promise<BenchSection> {
  const db = createDatabase({ url: ctx.testDb.appUrl, poolMax: 2 });
  const tenant = await createTestTenant(db);
  const owner = await createTestUser(db, tenant.id, { role: 'owner' });
  for (let i = 0; i < WORKSPACES; i += 1)
    await createTestWorkspace(db, tenant.id, { name: `bench-${String(i).padStart(2, '0')}` });
  const { secret } = await db.withTenant(tenant.id, (tx) =>
    mintApiToken(tx, {
      tenantId: tenant.id,
      createdById: owner.id,
      name: 'bench',
      grant: { kind: 'user', userId: owner.id, scopes: ROLE_SCOPES.owner, workspaceIds: [], pool: null },
      expiresAt: null,
    }),
  );
  await db.close();

  const parsed = parseConfig(apiConfigSchema, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    DATABASE_URL: ctx.testDb.appUrl,
    REDIS_URL: ctx.redisUrl,
  });
  if (!parsed.ok) throw new Error(`auth-throughput: bad API config: ${parsed.message}`);
  // The API logs every request at info, as in production; the lines go nowhere instead of to the terminal.
  const api = await startApi(
    parsed.config,
    createLogger({ name: 'api', level: 'info', destination: discard() }),
  );
  const apiUrl = `${api.origin}/v1/workspaces`;

  // The baseline: the same role and rows, the tenant fixed for the connection (no transaction per request),
  // no authentication, no zod.
  const pool = new Pool({
    connectionString: ctx.testDb.appUrl,
    max: 10,
    options: `-c app.tenant_id=${tenant.id}`,
  });
  // An idle client's connection ended by the server (the bench database dropped with FORCE after a repeat) emits
  // 'error' on the pool; unheard, that event killed the whole bench run (57P01) after its numbers were taken.
  pool.on('error', () => undefined);
  const plain = Fastify({ logger: false });
  plain.get('/plain/workspaces', async () => {
    const { rows } = await pool.query<WorkspaceRow>(
      `SELECT id, name, repository_identity, generation, trusted, created_at, updated_at
         FROM workspaces ORDER BY created_at, id LIMIT 51`,
    );
    return {
      items: rows.map((r) => ({
        id: r.id,
        name: r.name,
        repositoryIdentity: r.repository_identity,
        generation: r.generation,
        trusted: r.trusted,
        createdAt: r.created_at.toISOString(),
        updatedAt: r.updated_at.toISOString(),
      })),
      nextCursor: null,
    };
  });
  await plain.listen({ port: 0, host: '127.0.0.1' });
  const plainUrl = `http://127.0.0.1:${(plain.server.address() as AddressInfo).port}/plain/workspaces`;

  try {
    const headers = { authorization: `Bearer ${secret}` };
    // Both answer, with the same rows.
    const [viaApi, viaPlain] = await Promise.all([
      fetch(apiUrl, { headers }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as { items?: { id: string }[] },
      })),
      fetch(plainUrl).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as { items?: { id: string }[] },
      })),
    ]);
    if (viaApi.status !== 200)
      throw new Error(
        `auth-throughput: GET /v1/workspaces answered ${viaApi.status} (is the command surface wired into createApiApp?)`,
      );
    const ids = (b: { items?: { id: string }[] }) => (b.items ?? []).map((i) => i.id).join(',');
    if (ids(viaApi.body) !== ids(viaPlain.body) || (viaApi.body.items ?? []).length !== WORKSPACES) {
      throw new Error('auth-throughput: the API and the baseline returned different rows');
    }

    const run = (url: string, h: Record<string, string>, seconds: number) =>
      measuredLoad({ url, headers: h, connections: CONNECTIONS, durationSeconds: seconds });
    // Warm-up (JIT, pools, prepared statements, the token cache), then alternate the two targets.
    ctx.log(`auth-throughput: warming each target up for ${WARMUP_SECONDS} s`);
    await run(plainUrl, {}, WARMUP_SECONDS);
    await run(apiUrl, headers, WARMUP_SECONDS);
    const baseline: MeasuredLoad[] = [];
    const authed: MeasuredLoad[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      ctx.log(`auth-throughput: round ${round + 1}/${ROUNDS}`);
      baseline.push(await run(plainUrl, {}, ctx.durationSeconds));
      authed.push(await run(apiUrl, headers, ctx.durationSeconds));
    }
    for (const s of [...baseline, ...authed]) {
      if (s.non2xx > 0 || s.errors > 0)
        throw new Error(`auth-throughput: ${s.non2xx} non-2xx answers, ${s.errors} errors under load`);
    }
    const mean = (xs: MeasuredLoad[], f: (s: MeasuredLoad) => number) =>
      xs.reduce((sum, s) => sum + f(s), 0) / xs.length;
    const apiRate = mean(authed, (s) => s.requestsPerSecond);
    const plainRate = mean(baseline, (s) => s.requestsPerSecond);
    return {
      title: 'Authenticated read throughput',
      method:
        `GET /v1/workspaces (${WORKSPACES} rows) with a user bearer token through the full API (createApiApp: token ` +
        'lookup by hash, scopes, RLS transaction, zod in and out, request logging at info to a null sink, metrics) ' +
        'versus an unauthenticated plain Fastify route returning the same rows from one pg query as the same role. ' +
        `autocannon in a separate process, ${CONNECTIONS} connections, each target warmed up for ${WARMUP_SECONDS} s, ` +
        `then ${ctx.durationSeconds} s per run, ${ROUNDS} ` +
        'alternating rounds (mean), over loopback. Server CPU per request is the CPU time of the process serving ' +
        "both routes during each run divided by the requests answered (PostgreSQL's own CPU not included).",
      rows: [
        { label: 'plain Fastify + pg: requests/s', value: fixed(plainRate) },
        {
          label: 'plain Fastify + pg: latency p50 / p99 (ms)',
          value: `${fixed(mean(baseline, (s) => s.latencyP50Ms))} / ${fixed(mean(baseline, (s) => s.latencyP99Ms))}`,
        },
        {
          label: 'plain Fastify + pg: server CPU per request (ms)',
          value: fixed(
            mean(baseline, (s) => s.cpuMsPerRequest),
            2,
          ),
        },
        { label: 'full API, authenticated: requests/s', value: fixed(apiRate) },
        {
          label: 'full API, authenticated: latency p50 / p99 (ms)',
          value: `${fixed(mean(authed, (s) => s.latencyP50Ms))} / ${fixed(mean(authed, (s) => s.latencyP99Ms))}`,
        },
        {
          label: 'full API, authenticated: server CPU per request (ms)',
          value: fixed(
            mean(authed, (s) => s.cpuMsPerRequest),
            2,
          ),
        },
      ],
      ratio: { label: 'authenticated API / plain route (requests/s)', value: apiRate / plainRate },
    };
  } finally {
    await Promise.allSettled([api.close(), plain.close()]);
    await pool.end();
  }
}
