import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createDatabase } from '@gatehouse/db';
import { createLogger } from '@gatehouse/platform';
import { createTestWorkspace } from '@gatehouse/testing';
import { mintApiToken } from '../apps/api/src/auth/mint-api-token';
import { startLeaseHolderScenario } from '../apps/worker/src/revocations/test-support/lease-holder-scenario';
import { fixed, type BenchContext, type BenchSection } from './bench-context';
import type { ClientsLoadOptions, ClientsLoadSummary } from './concurrent-clients.runner';

// Lease issuance at 32 concurrent workers (decision 0073) beside the authenticated read of
// the auth-throughput bench, in the same API process and the same run: POST /v1/leases for one stdio server
// of one workspace (activation re-decided for that server, the pool's stdio authority, env materialized, the
// lease row and its audit event in one transaction) by 32 clients, each with its own worker token, one
// request at a time each; versus GET /v1/workspaces (20 rows) by as many clients with a user token. The same
// load generator (its own process), alternating rounds.

const WORKERS = Number(process.env.BENCH_LEASE_WORKERS ?? 32);
const WORKSPACES = 20;
const ROUNDS = 2;
const WARMUP_SECONDS = Math.max(5, Number(process.env.BENCH_WARMUP_S ?? 10));

function discard(): Writable {
  return new Writable({ write: (_chunk, _encoding, done) => done() });
}

function load(options: ClientsLoadOptions): Promise<ClientsLoadSummary> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(__dirname, 'concurrent-clients.runner.js')], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`load generator exited with ${code}`));
      try {
        resolve(JSON.parse(output) as ClientsLoadSummary);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    child.stdin.end(JSON.stringify(options));
  });
}

interface Measured extends ClientsLoadSummary {
  readonly cpuMsPerRequest: number;
}

/** A run plus the CPU this process (the API; the load generator is a child) spent per answered request. */
async function measured(options: ClientsLoadOptions): Promise<Measured> {
  const before = process.cpuUsage();
  const summary = await load(options);
  const used = process.cpuUsage(before);
  const failed = Object.entries(summary.failures);
  if (failed.length > 0)
    throw new Error(`lease-issuance: answers under load: ${JSON.stringify(summary.failures)}`);
  return { ...summary, cpuMsPerRequest: (used.user + used.system) / 1000 / Math.max(1, summary.requests) };
}

export async function benchLeaseIssuance(ctx: BenchContext): Promise<BenchSection> {
  const logger = createLogger({ name: 'bench', level: 'info', destination: discard() });
  const scenario = await startLeaseHolderScenario({ testDb: ctx.testDb, redisUrl: ctx.redisUrl, logger });
  const db = createDatabase({ url: ctx.testDb.appUrl, poolMax: 2 });
  try {
    for (let i = 1; i < WORKSPACES; i += 1)
      await createTestWorkspace(db, scenario.tenantId, { name: `bench-${String(i).padStart(2, '0')}` });
    const workerTokens: string[] = [];
    for (let i = 0; i < WORKERS; i += 1) {
      workerTokens.push(
        await db.withTenant(scenario.tenantId, async (tx) => {
          const minted = await mintApiToken(tx, {
            tenantId: scenario.tenantId,
            createdById: scenario.adminUserId,
            name: `bench worker ${i}`,
            grant: {
              kind: 'worker',
              userId: null,
              scopes: ['leases:write'],
              workspaceIds: [],
              pool: 'local',
            },
            expiresAt: null,
          });
          return minted.secret;
        }),
      );
    }
    await scenario.approve();

    const leases: Omit<ClientsLoadOptions, 'durationSeconds'> = {
      url: new URL('/v1/leases', scenario.apiUrl).toString(),
      method: 'POST',
      body: { workspaceId: scenario.workspaceId, serverName: 'silent' },
      tokens: workerTokens,
      clients: WORKERS,
    };
    const reads: Omit<ClientsLoadOptions, 'durationSeconds'> = {
      url: new URL('/v1/workspaces', scenario.apiUrl).toString(),
      method: 'GET',
      tokens: [scenario.adminToken],
      clients: WORKERS,
    };
    ctx.log(`lease-issuance: warming each target up for ${WARMUP_SECONDS} s`);
    await measured({ ...reads, durationSeconds: WARMUP_SECONDS });
    await measured({ ...leases, durationSeconds: WARMUP_SECONDS });
    const read: Measured[] = [];
    const issued: Measured[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      ctx.log(`lease-issuance: round ${round + 1}/${ROUNDS}`);
      read.push(await measured({ ...reads, durationSeconds: ctx.durationSeconds }));
      issued.push(await measured({ ...leases, durationSeconds: ctx.durationSeconds }));
    }
    const mean = (xs: Measured[], f: (s: Measured) => number) =>
      xs.reduce((sum, s) => sum + f(s), 0) / xs.length;
    const readRate = mean(read, (s) => s.requestsPerSecond);
    const leaseRate = mean(issued, (s) => s.requestsPerSecond);
    return {
      title: 'Lease issuance at 32 concurrent workers beside the authenticated read',
      method:
        `POST /v1/leases (one stdio server of one workspace, workspace lease) by ${WORKERS} concurrent clients, each ` +
        'with its own worker token and one request at a time (activation re-decided for that server from the ' +
        "workspace's sources, the pool's stdio authority within the tenant's HostPolicy, the lease row and its " +
        `audit event in one transaction), versus GET /v1/workspaces (${WORKSPACES} rows) by as many clients with ` +
        'a user token, against the same API process (createApiApp, request logging at info to a null sink) in the ' +
        `same run. The load generator runs in its own process; each target warmed up for ${WARMUP_SECONDS} s, then ` +
        `${ctx.durationSeconds} s per run, ${ROUNDS} alternating rounds (mean), over loopback. Server CPU per ` +
        "request: the API process's CPU time during each run over the requests answered (PostgreSQL's not included).",
      rows: [
        { label: 'authenticated read: requests/s', value: fixed(readRate) },
        {
          label: 'authenticated read: latency p50 / p99 (ms)',
          value: `${fixed(mean(read, (s) => s.latencyP50Ms))} / ${fixed(mean(read, (s) => s.latencyP99Ms))}`,
        },
        {
          label: 'authenticated read: server CPU per request (ms)',
          value: fixed(
            mean(read, (s) => s.cpuMsPerRequest),
            2,
          ),
        },
        { label: 'lease issuance: leases/s', value: fixed(leaseRate) },
        {
          label: 'lease issuance: latency p50 / p99 (ms)',
          value: `${fixed(mean(issued, (s) => s.latencyP50Ms))} / ${fixed(mean(issued, (s) => s.latencyP99Ms))}`,
        },
        {
          label: 'lease issuance: server CPU per lease (ms)',
          value: fixed(
            mean(issued, (s) => s.cpuMsPerRequest),
            2,
          ),
        },
        { label: 'target', value: 'lease issuance at least half the authenticated read (ratio >= 0.5)' },
      ],
      ratio: { label: 'leases/s / authenticated reads/s (target >= 0.5)', value: leaseRate / readRate },
    };
  } finally {
    await db.close();
    await scenario.close();
  }
}
