import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createApiSteps,
  createTestWorkspace,
  TEST_DATABASE_TIMEOUT_MS,
  type ApiSteps,
} from '@gatehouse/testing';
// The CLI's peer is the real API: a test reaching for its real peer is the one place an app imports another.
// eslint-disable-next-line @nx/enforce-module-boundaries
import {
  createMember,
  mintTestToken,
  mintWorkerTestToken,
} from '../../../api/src/commands/testing/surfaces-harness.js';
import { runGatehouse, startLoopbackApi, type LoopbackApi } from '../test-support/api-on-loopback';

// `gatehouse catalog` shows why a server is still pending discovery (decision 0142): the real API on a loopback
// port, a worker token reporting a discovery failure for the lease it holds, and the CLI's table and --json.

jest.setTimeout(120_000);

const NODE = process.execPath;
const REFUSING = [NODE, '/srv/mcp/refusing.js'];
const QUIET = [NODE, '/srv/mcp/quiet.js'];

let api: LoopbackApi;
let root: string;
let workspaceId: string;
const tokens = { admin: '', approver: '', worker: '' };
let steps: ApiSteps<keyof typeof tokens>;

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gh-cli-failure-')));
  api = await startLoopbackApi({
    WORKER_POOLS: JSON.stringify({
      local: { tenants: '*', stdio: true, commandCeiling: [REFUSING, QUIET], allowedRoots: [root] },
    }),
  });
  const admin = await createMember(api.db, api.tenant, 'admin');
  const approver = await createMember(api.db, api.tenant, 'approver');
  workspaceId = (await createTestWorkspace(api.db, api.tenant.id)).id;
  tokens.admin = (await mintTestToken(api.db, api.tenant, admin, { kind: 'user' })).secret;
  tokens.approver = (await mintTestToken(api.db, api.tenant, approver, { kind: 'user' })).secret;
  tokens.worker = await mintWorkerTestToken(api.db, api.tenant, admin, { pool: 'local' });
  steps = createApiSteps({
    api: api.app,
    tokens,
    workspaceId,
    admin: 'admin',
    approver: 'approver',
    worker: 'worker',
    discovery: { clientName: 'cli-test', searchPath: '/usr/bin:/bin' },
  });
  await steps.putHostPolicy([REFUSING, QUIET]);
  await steps.defineServers('admin', 'managed', {
    refusing: { type: 'stdio', command: NODE, args: REFUSING.slice(1) },
    quiet: { type: 'stdio', command: NODE, args: QUIET.slice(1) },
  });
  await steps.approve('refusing');
  await steps.approve('quiet');
  const lease = await steps.expectStatus('worker', 'POST', '/v1/leases', 201, {
    workspaceId,
    serverName: 'refusing',
  });
  await steps.expectStatus('worker', 'POST', `/v1/leases/${lease.body.id as string}/discovery-failure`, 201, {
    failureClass: 'protocol',
    reason: 'protocol_version_refused',
  });
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await api?.close();
  if (root !== undefined) await rm(root, { recursive: true, force: true });
}, TEST_DATABASE_TIMEOUT_MS);

const asAdmin = () => ({ GATEHOUSE_API_URL: api.url, GATEHOUSE_TOKEN: tokens.admin, HOME: root });

describe('gatehouse catalog with a discovery failure', () => {
  it('marks the server in the table, and prints the reason word and its sentence whole under it', async () => {
    const run = await runGatehouse(['catalog', '--workspace', workspaceId], { env: asAdmin() });
    expect(run.code).toBe(0);
    expect(run.out[0]).toMatch(/^SERVER\s+STATE\s+TOOLS\s+COMPLETE\s+STALE\s+FETCHED$/);
    expect(run.out.find((line) => line.startsWith('refusing '))).toMatch(
      /^refusing\s+pending_discovery \(protocol_version_refused\)\s+0\s+no\s+no\s+-$/,
    );
    expect(run.out.find((line) => line.startsWith('quiet '))).toMatch(/^quiet\s+pending_discovery\s+0\s+no/);
    expect(run.out.slice(3)).toEqual([
      '',
      'refusing: pending_discovery (protocol_version_refused: the server refused every protocol version we speak)',
    ]);
  });

  it('carries the failure in --json as the API answered it', async () => {
    const run = await runGatehouse(['catalog', '--workspace', workspaceId, '--json'], { env: asAdmin() });
    expect(run.code).toBe(0);
    const catalog = JSON.parse(run.out[0] as string) as { servers: Record<string, unknown>[] };
    expect(catalog.servers.find((server) => server.name === 'refusing')).toMatchObject({
      state: 'pending_discovery',
      discoveryFailure: {
        failureClass: 'protocol',
        reason: 'protocol_version_refused',
        detail: 'the server refused every protocol version we speak',
      },
    });
    expect(catalog.servers.find((server) => server.name === 'quiet')).not.toHaveProperty('discoveryFailure');
  });
});
