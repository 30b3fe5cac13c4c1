import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Client } from 'pg';
import { catalogRefreshQueueOf, type CatalogRefreshPayloadV2 } from '@gatehouse/contracts';
import { closeRedis, createRedisConnection } from '@gatehouse/coordination';
import { createDatabase, type Database } from '@gatehouse/db';
import { createLogger, parseConfig } from '@gatehouse/platform';
import {
  createTestDatabase,
  createTestTenant,
  createTestWorkspace,
  testRedisUrl,
  TEST_DATABASE_TIMEOUT_MS,
  type TestDatabase,
  type TestTenant,
} from '@gatehouse/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
// The worker's peer is the real API (leases, snapshots): a test reaching for its real peer is the one place an app
// imports another.
// eslint-disable-next-line @nx/enforce-module-boundaries
import {
  createMember,
  mintTestToken,
  mintWorkerTestToken,
} from '../../../api/src/commands/testing/surfaces-harness.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { apiConfigSchema } from '../../../api/src/config/api.config.js';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createApiApp } from '../../../api/src/create-api-app.js';
import { CHILD_GROUP_REAPER_NAME } from '../children/child-group-reaper-source.js';
import type { CatalogRefreshOutcome } from './catalog-refresh-processor.js';

// Catalog discovery's acceptance (docs/architecture/child-processes.md): "SIGKILL of the worker during
// discovery: no orphan child process, no partial snapshot; the job is retried and completes" (decision 0072).
// Real processes throughout: the API on a loopback port (real Postgres and Redis), two worker processes from
// the build (dist main.js) one after the other, and a stdio server that outlives its client (it ignores its
// stdin closing and SIGTERM, and holds its listing until a gate file exists). Worker A takes the job and is
// SIGKILLed mid-discovery: its reaper ends the server's group (the pid is gone from /proc), nothing is
// stored, and A's lease is left live. Worker B's stalled check puts the job back (JOB_LOCK_MS short here), B
// takes a lease of its own beside A's and completes the job: one snapshot, B's.

jest.setTimeout(180_000);

const ROOT_DIR = resolve(__dirname, '../../../..');
const MAIN = join(ROOT_DIR, 'dist/apps/worker/src/main.js');
const NODE = process.execPath;
const STUBBORN = join(__dirname, 'test-support/stubborn-listing-server.fixture.cjs');
const CHILD_PATH = `${dirname(NODE)}:/usr/bin:/bin`;
const POOL = 'local';
const SERVER = 'stubborn';
const silent = createLogger({ name: 'worker-killed-test', level: 'silent' });

let testDb: TestDatabase;
let db: Database;
let api: NestFastifyApplication;
let apiUrl: string;
let acme: TestTenant;
let workspaceId: string;
let root: string;
let gate: string;
const tokens = { admin: '', approver: '', worker: '' };
const prefix = `gh-test-${randomBytes(6).toString('hex')}`;
let producer: Redis;
let queue: Queue;
let events: QueueEvents;
const workers: ChildProcess[] = [];

async function rest(who: keyof typeof tokens, method: 'POST' | 'PUT', url: string, payload: unknown) {
  const response = await api.inject({
    method,
    url,
    headers: { authorization: `Bearer ${tokens[who]}`, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
  const body = JSON.parse(response.body || 'null') as Record<string, unknown>;
  if (response.statusCode >= 300)
    throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return body;
}

async function approve(): Promise<string> {
  const opened = await rest('admin', 'POST', `/v1/workspaces/${workspaceId}/approval-requests`, {
    serverName: SERVER,
    view: 'workspace',
  });
  const identity = opened.identity as { key: string; definitionFingerprint: string };
  await rest('approver', 'POST', `/v1/approval-requests/${opened.id as string}/decision`, {
    decision: 'approve',
    seenFingerprint: identity.definitionFingerprint,
    seenIdentityKey: identity.key,
  });
  return identity.definitionFingerprint;
}

interface ProcessInfo {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  readonly state: string;
}

/** A process as /proc shows it now; null once it is gone. */
async function processInfo(pid: number): Promise<ProcessInfo | null> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (stat === null) return null;
  // pid (comm) state ppid pgrp ...: the fields after the parenthesised command name.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { pid, state: fields[0] ?? '?', ppid: Number(fields[1]), pgid: Number(fields[2]) };
}

/** Live children of `parent` whose command line contains `needle`. */
async function childrenOf(parent: number, needle: string): Promise<ProcessInfo[]> {
  const found: ProcessInfo[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (!cmdline.includes(needle)) continue;
    const info = await processInfo(Number(entry));
    if (info !== null && info.ppid === parent && info.state !== 'Z') found.push(info);
  }
  return found;
}

/** Gone, or a zombie no parent reaped yet: either way it runs no more. */
async function ended(pid: number): Promise<boolean> {
  const info = await processInfo(pid);
  return info === null || info.state === 'Z';
}

/**
 * Waits for a condition on other processes, which no event of ours announces: checked every 50 ms, for at most
 * `bound` ms.
 */
async function eventually<T>(check: () => Promise<T | undefined>, bound = 30_000): Promise<T> {
  for (let waited = 0; waited <= bound; waited += 50) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((done) => setTimeout(done, 50));
  }
  throw new Error('condition not reached');
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** A worker process as production runs it (the build's main.js), once it takes jobs. */
async function startWorker(): Promise<ChildProcess> {
  const child = spawn(NODE, [MAIN], {
    cwd: ROOT_DIR,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env['PATH'] ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      REDIS_URL: testRedisUrl(),
      API_URL: apiUrl,
      QUEUE_PREFIX: prefix,
      WORKER_TOKEN: tokens.worker,
      WORKER_POOL: POOL,
      WORKER_CONCURRENCY: '1',
      WORKER_PORT: String(await freePort()),
      CHILD_PATH,
      CHILD_USER: 'self',
      CHILD_CLOSE_GRACE_MS: '300',
      // Short, so the killed worker's job is put back within seconds rather than a minute.
      JOB_LOCK_MS: '1500',
    },
  });
  workers.push(child);
  child.stderr?.resume();
  let output = '';
  await new Promise<void>((done, fail) => {
    child.once('exit', (code) => fail(new Error(`worker exited early (${code}): ${output.slice(-2000)}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('queue workers started')) done();
    });
  });
  child.removeAllListeners('exit');
  return child;
}

async function snapshotRows(): Promise<{ lease_id: string }[]> {
  const owner = new Client({ connectionString: testDb.adminUrl });
  await owner.connect();
  try {
    const result = await owner.query<{ lease_id: string }>(
      'SELECT lease_id FROM catalog_snapshots WHERE workspace_id = $1 AND server_name = $2',
      [workspaceId, SERVER],
    );
    return result.rows;
  } finally {
    await owner.end();
  }
}

const leases = () =>
  db.withTenant(acme.id, (tx) =>
    tx.lease.findMany({ where: { workspaceId, serverName: SERVER }, orderBy: { issuedAt: 'asc' } }),
  );

beforeAll(async () => {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run node scripts/build.mjs first`);
  root = await realpath(await mkdtemp(join(tmpdir(), 'gh-14-killed-')));
  gate = join(root, 'listing-open');
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 2 });
  acme = await createTestTenant(db, { slug: `acme-${randomUUID().slice(0, 8)}` });
  const admin = await createMember(db, acme, 'admin');
  const approver = await createMember(db, acme, 'approver');
  workspaceId = (await createTestWorkspace(db, acme.id)).id;
  tokens.admin = (await mintTestToken(db, acme, admin, { kind: 'user' })).secret;
  tokens.approver = (await mintTestToken(db, acme, approver, { kind: 'user' })).secret;
  tokens.worker = await mintWorkerTestToken(db, acme, admin, { pool: POOL });
  const parsed = parseConfig(apiConfigSchema, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: testDb.appUrl,
    REDIS_URL: testRedisUrl(),
    GATEHOUSE_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    GATEHOUSE_ACTIVE_KEY_ID: 'k1',
    WORKER_POOLS: JSON.stringify({
      [POOL]: { tenants: [acme.slug], stdio: true, commandCeiling: [[NODE, STUBBORN]], allowedRoots: [root] },
    }),
  });
  if (!parsed.ok) throw new Error(parsed.message);
  api = await createApiApp(parsed.config, { logger: silent });
  await api.listen({ host: '127.0.0.1', port: 0 });
  apiUrl = await api.getUrl();
  await rest('admin', 'PUT', '/v1/host-policy', {
    stdioCommands: [[NODE, STUBBORN]],
    headerHelpers: [],
    privateCidrs: [],
    traceContextOrigins: [],
    fourEyes: false,
  });
  await rest('admin', 'PUT', '/v1/definition-sources', {
    tier: 'managed',
    name: 'killed',
    document: { mcpServers: { [SERVER]: { type: 'stdio', command: NODE, args: [STUBBORN, gate] } } },
  });
  producer = createRedisConnection({ url: testRedisUrl(), name: 'worker-killed-test', purpose: 'bullmq' });
  queue = new Queue(catalogRefreshQueueOf(POOL), { connection: producer, prefix });
  events = new QueueEvents(catalogRefreshQueueOf(POOL), { connection: { url: testRedisUrl() }, prefix });
  await events.waitUntilReady();
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  for (const worker of workers) {
    if (worker.exitCode === null && worker.signalCode === null) {
      const exited = once(worker, 'exit');
      worker.kill('SIGTERM');
      await exited;
    }
  }
  await events?.close();
  await queue?.obliterate({ force: true });
  await queue?.close();
  if (producer) await closeRedis(producer);
  await api?.close();
  await db?.close();
  await testDb?.drop();
  await rm(root, { recursive: true, force: true });
}, TEST_DATABASE_TIMEOUT_MS);

describe('SIGKILL of a worker during discovery', () => {
  it('leaves no orphan and no snapshot; the job is retried by another worker and completes', async () => {
    const fingerprint = await approve();
    const workerA = await startWorker();
    const pidA = workerA.pid ?? 0;
    const reaperA = await eventually(async () => (await childrenOf(pidA, CHILD_GROUP_REAPER_NAME))[0]);
    // The reaper runs in a session of its own: a signal to the worker's group is none of its business.
    expect(reaperA.pgid).toBe(reaperA.pid);

    const payload: CatalogRefreshPayloadV2 = {
      v: 2,
      tenantId: acme.id,
      workspaceId,
      serverName: SERVER,
      definitionFingerprint: fingerprint,
      principalUserId: null,
      pool: POOL,
      reason: 'manual',
      requestedAt: new Date().toISOString(),
    };
    const job = await queue.add('refresh', payload, { jobId: `killed-${randomUUID()}` });
    // Discovery under way: A's stdio child runs (its own group) and its listing waits on the gate.
    const childA = await eventually(async () => (await childrenOf(pidA, STUBBORN))[0]);
    expect(childA.pgid).toBe(childA.pid);
    const [leaseA] = await leases();
    expect(leaseA?.releasedAt).toBeNull();

    const exited = once(workerA, 'exit');
    workerA.kill('SIGKILL');
    await exited;

    // The child ignores its stdin closing and TERM: the reaper's KILL to its group ends it, and the reaper exits.
    await eventually(async () => ((await ended(childA.pid)) ? true : undefined));
    await eventually(async () => ((await ended(reaperA.pid)) ? true : undefined));
    expect(await snapshotRows()).toEqual([]);
    // A's lease is left as it was (live until its TTL): nothing of it stands in the retry's way.
    const afterKill = await leases();
    expect(afterKill).toHaveLength(1);
    expect(afterKill[0]).toMatchObject({ id: leaseA?.id, releasedAt: null, revokedAt: null });

    await writeFile(gate, 'open');
    const workerB = await startWorker();
    const outcome = (await job.waitUntilFinished(events, 120_000)) as CatalogRefreshOutcome;
    expect(outcome).toMatchObject({ outcome: 'stored', complete: true, tools: 1 });
    if (outcome.outcome !== 'stored') throw new Error('not stored');
    expect(outcome.leaseId).not.toBe(leaseA?.id);
    expect(await job.getState()).toBe('completed');
    expect(await snapshotRows()).toEqual([{ lease_id: outcome.leaseId }]);
    const finalLeases = await leases();
    expect(finalLeases.map((lease) => lease.id)).toEqual([leaseA?.id, outcome.leaseId]);
    expect(finalLeases[1]?.releasedAt).not.toBeNull();
    // B closed its own child when the job ended (its group killed after the TERM it ignores).
    expect(await childrenOf(workerB.pid ?? 0, STUBBORN)).toEqual([]);
  });
});
