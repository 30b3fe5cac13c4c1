import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createDatabase, type Database } from '@gatehouse/db';
import {
  createApiSteps,
  createTestDatabase,
  createTestTenant,
  createTestWorkspace,
  httpApi,
  testNamespaces,
  testRedisUrl,
  TEST_DATABASE_TIMEOUT_MS,
  type ApiSteps,
  type TestDatabase,
  type TestTenant,
} from '@gatehouse/testing';
import { createMember, mintTestToken, mintWorkerTestToken } from '../commands/testing/surfaces-harness';

// Catalog discovery's acceptance (docs/architecture/catalog.md), end to end through real processes: the API
// (the build's main.js) and a worker (main.js) on real Postgres and Redis, and
// @modelcontextprotocol/server-everything over stdio. Approve the server in a workspace -> the API enqueues
// the discovery job after the decision commits -> the worker leases, discovers and submits -> the catalog
// lease (`GET /v1/workspaces/:id/catalog`, an agent token) shows its tools under mcp__everything__... ->
// revoke the approval -> the catalog drops the server. Every wait is a long-poll of the catalog (`?wait=`
// with the ETag), answered on change: nothing is slept for.

jest.setTimeout(180_000);

const ROOT_DIR = resolve(__dirname, '../../../..');
const API_MAIN = join(ROOT_DIR, 'dist/apps/api/src/main.js');
const WORKER_MAIN = join(ROOT_DIR, 'dist/apps/worker/src/main.js');
const EVERYTHING = join(ROOT_DIR, 'node_modules/.bin/mcp-server-everything');
const NODE = process.execPath;
const POOL = 'local';

let testDb: TestDatabase;
let db: Database;
let acme: TestTenant;
let workspaceId: string;
let root: string;
let apiUrl: string;
const processes: ChildProcess[] = [];
const tokens = { admin: '', approver: '', agent: '', worker: '' };
let steps: ApiSteps<keyof typeof tokens>;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** Starts a built app and resolves once it printed `ready` (a log line); its output is kept for a failure. */
async function start(main: string, env: Record<string, string>, ready: string): Promise<ChildProcess> {
  const child = spawn(NODE, [main], {
    cwd: ROOT_DIR,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env['PATH'] ?? '', NODE_ENV: 'test', LOG_LEVEL: 'info', ...env },
  });
  processes.push(child);
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  await new Promise<void>((done, fail) => {
    child.once('exit', (code) => fail(new Error(`${main} exited (${code}): ${output.slice(-2000)}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes(ready)) done();
    });
  });
  child.removeAllListeners('exit');
  return child;
}

async function call(who: keyof typeof tokens, method: string, path: string, body?: unknown, headers = {}) {
  const response = await fetch(new URL(path, apiUrl), {
    method,
    headers: {
      authorization: `Bearer ${tokens[who]}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return {
    status: response.status,
    etag: response.headers.get('etag'),
    body: (text === '' ? null : JSON.parse(text)) as Record<string, unknown>,
  };
}

type Catalog = {
  servers: { name: string; state: string }[];
  document: { servers: { tools: { name: string }[] }[] };
};

/**
 * Reads the agent's catalog until `until` holds: each read after the first is a long-poll on the last ETag,
 * which the API answers when the catalog changes (or after `wait` seconds with 304, and the next poll waits again).
 */
async function catalogUntil(until: (catalog: Catalog) => boolean, rounds = 8): Promise<Catalog> {
  const path = `/v1/workspaces/${workspaceId}/catalog`;
  let read = await call('agent', 'GET', path);
  for (let round = 0; round < rounds; round += 1) {
    if (read.status === 200) {
      const catalog = read.body as unknown as Catalog;
      if (until(catalog)) return catalog;
    } else if (read.status !== 304) {
      throw new Error(`catalog read answered ${read.status}: ${JSON.stringify(read.body)}`);
    }
    const tag = read.etag ?? '';
    const next = await call('agent', 'GET', `${path}?wait=20`, undefined, { 'if-none-match': tag });
    read = next.status === 304 ? { ...next, etag: tag } : next;
  }
  throw new Error('the catalog never reached the expected state');
}

const toolsOf = (catalog: Catalog) =>
  catalog.document.servers.flatMap((server) => server.tools.map((t) => t.name));

beforeAll(async () => {
  for (const main of [API_MAIN, WORKER_MAIN])
    if (!existsSync(main)) throw new Error(`${main} is missing: run node scripts/build.mjs first`);
  root = await realpath(await mkdtemp(join(tmpdir(), 'gh-14c-acceptance-')));
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 2 });
  acme = await createTestTenant(db, { slug: `acme-${randomUUID().slice(0, 8)}` });
  const admin = await createMember(db, acme, 'admin');
  const approver = await createMember(db, acme, 'approver');
  workspaceId = (await createTestWorkspace(db, acme.id)).id;
  tokens.admin = (await mintTestToken(db, acme, admin, { kind: 'user' })).secret;
  tokens.approver = (await mintTestToken(db, acme, approver, { kind: 'user' })).secret;
  tokens.agent = (
    await mintTestToken(db, acme, admin, {
      kind: 'agent',
      scopes: ['catalog:read'],
      workspaceIds: [workspaceId],
    })
  ).secret;
  tokens.worker = await mintWorkerTestToken(db, acme, admin, { pool: POOL });

  // This file's own queue and Redis key namespaces, the API's and its worker's.
  const shared = { REDIS_URL: testRedisUrl(), ...testNamespaces() };
  const port = await freePort();
  apiUrl = `http://127.0.0.1:${port}`;
  await start(
    API_MAIN,
    {
      ...shared,
      DATABASE_URL: testDb.appUrl,
      API_HOST: '127.0.0.1',
      API_PORT: String(port),
      PUBLIC_URL: apiUrl,
      GATEHOUSE_KEYS: `k1:${randomBytes(32).toString('base64')}`,
      GATEHOUSE_ACTIVE_KEY_ID: 'k1',
      WORKER_POOLS: JSON.stringify({
        [POOL]: { tenants: [acme.slug], stdio: true, commandCeiling: [[EVERYTHING]], allowedRoots: [root] },
      }),
    },
    'api listening',
  );
  await start(
    WORKER_MAIN,
    {
      ...shared,
      API_URL: apiUrl,
      WORKER_TOKEN: tokens.worker,
      WORKER_POOL: POOL,
      WORKER_PORT: String(await freePort()),
      CHILD_PATH: `${dirname(NODE)}:/usr/bin:/bin`,
      CHILD_USER: 'self',
    },
    'queue workers started',
  );
  steps = createApiSteps({
    api: httpApi(apiUrl),
    tokens,
    workspaceId,
    admin: 'admin',
    approver: 'approver',
    worker: 'worker',
    discovery: { clientName: 'catalog-acceptance-test', searchPath: `${dirname(NODE)}:/usr/bin:/bin` },
  });
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  for (const child of processes.reverse()) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  }
  await db?.close();
  await testDb?.drop();
  if (root) await rm(root, { recursive: true, force: true });
}, TEST_DATABASE_TIMEOUT_MS);

it('approve server-everything -> the worker discovers it -> the catalog shows mcp__everything__* -> revoke -> gone', async () => {
  await steps.putHostPolicy([[EVERYTHING, 'stdio']]);
  await steps.defineServers(
    'admin',
    'managed',
    { everything: { type: 'stdio', command: EVERYTHING, args: ['stdio'] } },
    'acceptance',
  );
  const approval = await steps.approve('everything');

  // Nothing asked the worker: the approval's commit enqueued the job, and the worker's snapshot changes the catalog.
  const discovered = await catalogUntil((catalog) =>
    catalog.servers.some((server) => server.name === 'everything' && server.state === 'discovered'),
  );
  const tools = toolsOf(discovered);
  expect(tools).toContain('mcp__everything__echo');
  for (const name of tools) expect(name).toMatch(/^mcp__everything__[A-Za-z0-9_-]+$/);

  await steps.expectStatus('admin', 'POST', `/v1/approvals/${approval.approvalId}/revoke`, 200, {
    reason: 'acceptance: revoke',
  });
  const revoked = await catalogUntil(
    (catalog) => !catalog.servers.some((server) => server.name === 'everything'),
  );
  expect(toolsOf(revoked)).toEqual([]);
});
