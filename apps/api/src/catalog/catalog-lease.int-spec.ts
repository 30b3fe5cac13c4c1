import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { workspaceCatalog, type WorkspaceCatalogV1 } from '@gatehouse/contracts';
import { createDatabase, insertGatewayToken, type Database } from '@gatehouse/db';
import { createFixedResolver } from '@gatehouse/egress';
import { createLogger, parseConfig } from '@gatehouse/platform';
import {
  createApiSteps,
  createTestDatabase,
  createTestTenant,
  createTestWorkspace,
  testApiEnv,
  TEST_DATABASE_TIMEOUT_MS,
  type ApiSteps,
  type TestDatabase,
  type TestTenant,
  type TestUser,
} from '@gatehouse/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mintTokenSecret } from '../auth/api-token-format';
import { createMember, mintTestToken, mintWorkerTestToken } from '../commands/testing/surfaces-harness';
import { apiConfigSchema } from '../config/api.config';
import { createApiApp } from '../create-api-app';

// The catalog lease (catalog.get; decisions 0074 and 0075) through the real API, Postgres and
// Redis, with snapshots a real discovery made: a lease for @modelcontextprotocol/server-everything over
// stdio, discovered through libs/mcp-client as the worker does, posted through catalog.submit. Proves: the
// tools appear under mcp__everything__*; 304 for the same ETag; a long-poll answered early by the snapshot
// and by a revoked approval (which drops the server); another principal's per-user server is invisible; no
// secret in the catalog.

jest.setTimeout(120_000);

const ROOT_DIR = resolve(__dirname, '../../../..');
const EVERYTHING = join(ROOT_DIR, 'node_modules/.bin/mcp-server-everything');
const CHILD_PATH = `${dirname(process.execPath)}:/usr/bin:/bin`;
const CANARY = `cnrycat${randomBytes(9).toString('hex')}`;
const POOL = 'local';

let testDb: TestDatabase;
let db: Database;
let app: NestFastifyApplication;
let acme: TestTenant;
let globex: TestTenant;
let alice: TestUser;
let bob: TestUser;
let workspaceId: string;
let root: string;
let everythingApprovalId = '';
let aliceSource: Answer;
const tokens = {
  admin: '',
  approver: '',
  alice: '',
  bob: '',
  agent: '',
  worker: '',
  globexOwner: '',
  gateway: '',
  gatewayElsewhere: '',
};
type Who = keyof typeof tokens;
let steps: ApiSteps<Who>;

interface Answer {
  status: number;
  etag: string | undefined;
  text: string;
  body: Record<string, unknown>;
}

async function rest(
  who: Who,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${tokens[who]}`,
      ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
  });
  const etag = response.headers.etag;
  return {
    status: response.statusCode,
    etag: typeof etag === 'string' ? etag : undefined,
    text: response.body,
    body: JSON.parse(response.body || 'null') as Record<string, unknown>,
  };
}

async function ok(answer: Promise<Answer>, status: number): Promise<Answer> {
  const got = await answer;
  if (got.status !== status) throw new Error(`expected ${status}, got ${got.status}: ${got.text}`);
  return got;
}

const catalogUrl = (query = '') => `/v1/workspaces/${workspaceId}/catalog${query}`;

async function catalogOf(
  who: Who,
  query = '',
): Promise<{ catalog: WorkspaceCatalogV1; etag: string; text: string }> {
  const answer = await ok(rest(who, 'GET', catalogUrl(query)), 200);
  const parsed = workspaceCatalog.safeParse(answer.body);
  if (!parsed.success) throw new Error(`not a workspace catalog: ${parsed.error.message}`);
  return { catalog: parsed.data, etag: answer.etag ?? '', text: answer.text };
}

/** Opens a review of the server in a view and lets the approver approve what it shows: the approval id. */
const approve = async (serverName: string, view: 'workspace' | 'principal', asker: Who = 'admin') =>
  (await steps.approve(serverName, view, asker)).approvalId;

/** A real discovery of a leased server, as the worker makes it, posted for the lease through catalog.submit. */
const discoverAndSubmit = (serverName: string) => steps.discoverAndSubmit(serverName);

/** A hand-made one-server catalog (an HTTP server the test cannot reach), posted for a lease through catalog.submit. */
async function submitMade(serverName: string, principalUserId: string, tools: string[]): Promise<void> {
  const issued = await ok(
    rest('worker', 'POST', '/v1/leases', { workspaceId, serverName, principalUserId }),
    201,
  );
  const source = issued.body.source as { tier: 'user'; origin: string };
  const document = {
    v: 1,
    complete: true,
    stale: false,
    servers: [
      {
        identity: { server: serverName, protocolVersion: '2025-11-25', serverVersion: '1.0.0' },
        source,
        contentOrigin: 'external',
        contentOriginDeclared: false,
        complete: true,
        stale: false,
        fetchedAt: new Date().toISOString(),
        tools: tools.map((name) => ({
          name: `mcp__${serverName}__${name}`,
          remoteName: name,
          inputSchema: { type: 'object', properties: {} },
          axes: { effect: 'write', egress: true },
          axesFrom: { effect: 'default', egress: 'default', irreversibility: 'absent' },
          contentOrigin: 'external',
          source,
        })),
        prompts: [],
        resources: [],
        resourceTemplates: [],
        diagnostics: [],
      },
    ],
    diagnostics: [],
  };
  await ok(rest('worker', 'POST', `/v1/leases/${issued.body.id as string}/snapshot`, { document }), 201);
}

const serverNamed = (catalog: WorkspaceCatalogV1, name: string) =>
  catalog.servers.find((s) => s.name === name);

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gh-catalog-lease-')));
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 3 });
  acme = await createTestTenant(db, { slug: `acme-${randomUUID().slice(0, 8)}` });
  globex = await createTestTenant(db, { slug: `globex-${randomUUID().slice(0, 8)}` });
  const admin = await createMember(db, acme, 'admin');
  const approver = await createMember(db, acme, 'approver');
  alice = await createMember(db, acme, 'member');
  bob = await createMember(db, acme, 'member');
  const globexOwner = await createMember(db, globex, 'owner');
  workspaceId = (await createTestWorkspace(db, acme.id)).id;
  tokens.admin = (await mintTestToken(db, acme, admin, { kind: 'user' })).secret;
  tokens.approver = (await mintTestToken(db, acme, approver, { kind: 'user' })).secret;
  tokens.alice = (await mintTestToken(db, acme, alice, { kind: 'user' })).secret;
  tokens.bob = (await mintTestToken(db, acme, bob, { kind: 'user' })).secret;
  tokens.globexOwner = (await mintTestToken(db, globex, globexOwner, { kind: 'user' })).secret;
  tokens.agent = (
    await mintTestToken(db, acme, admin, {
      kind: 'agent',
      scopes: ['catalog:read'],
      workspaceIds: [workspaceId],
    })
  ).secret;
  tokens.worker = await mintWorkerTestToken(db, acme, admin, {
    pool: POOL,
    name: 'worker',
    scopes: ['leases:write', 'snapshots:write', 'catalog:read'],
  });
  // Gateway tokens, as the operator's CLI makes them: one on a pool open to acme, one on a pool that is not.
  for (const [who, pool] of [
    ['gateway', POOL],
    ['gatewayElsewhere', 'elsewhere'],
  ] as const) {
    const minted = mintTokenSecret('gateway');
    await insertGatewayToken({
      ownerUrl: testDb.ownerUrl,
      name: `catalog ${who}`,
      scopes: ['catalog:read'],
      pool,
      secretHash: minted.secretHash,
      prefix: minted.prefix,
      expiresAt: null,
    });
    tokens[who] = minted.secret;
  }
  const parsed = parseConfig(
    apiConfigSchema,
    testApiEnv(testDb.appUrl, {
      LOG_LEVEL: 'error',
      WORKER_POOLS: JSON.stringify({
        [POOL]: {
          tenants: [acme.slug],
          stdio: true,
          commandCeiling: [[EVERYTHING]],
          allowedRoots: [root],
          childEnvKeys: ['GH_CANARY'],
        },
        elsewhere: { tenants: [globex.slug] },
      }),
    }),
  );
  if (!parsed.ok) throw new Error(parsed.message);
  app = await createApiApp(parsed.config, {
    logger: createLogger({ name: 'catalog-lease-test', level: 'error' }),
    egressResolver: createFixedResolver({ 'mcp.public.example': ['93.184.216.34'] }),
  });
  steps = createApiSteps({
    api: app,
    tokens,
    workspaceId,
    admin: 'admin',
    approver: 'approver',
    worker: 'worker',
    discovery: { clientName: 'gatehouse-catalog-lease-test', searchPath: CHILD_PATH },
  });
  await steps.putHostPolicy([[EVERYTHING, 'stdio']]);
  await steps.defineServers(
    'admin',
    'managed',
    { everything: { type: 'stdio', command: EVERYTHING, args: ['stdio'], env: { GH_CANARY: CANARY } } },
    'catalog',
  );
  // Alice's own server (user tier): approved for her alone.
  aliceSource = await ok(
    rest('alice', 'PUT', '/v1/definition-sources', {
      tier: 'user',
      document: {
        mcpServers: {
          alicetool: {
            type: 'http',
            url: 'https://mcp.public.example/alice',
            headers: { Authorization: `Bearer ${CANARY}` },
          },
        },
      },
    }),
    200,
  );
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await app?.close();
  await db?.close();
  await testDb?.drop();
  await rm(root, { recursive: true, force: true });
}, TEST_DATABASE_TIMEOUT_MS);

describe('catalog.get: the catalog lease', () => {
  it('lists an approved server as pending discovery until a snapshot arrives, which answers a long-poll early', async () => {
    const empty = await catalogOf('admin');
    expect(empty.catalog.servers).toEqual([]);
    // The approval itself answers a waiting long-poll: the server is now pending discovery.
    const waiting = rest('admin', 'GET', catalogUrl('?wait=60'), undefined, { 'if-none-match': empty.etag });
    everythingApprovalId = await approve('everything', 'workspace');
    const woken = await waiting;
    expect(woken.status).toBe(200);
    expect(serverNamed(workspaceCatalog.parse(woken.body), 'everything')?.state).toBe('pending_discovery');
    const pending = await catalogOf('agent');
    expect(pending.catalog).toMatchObject({ principalUserId: null, complete: false });
    expect(serverNamed(pending.catalog, 'everything')).toMatchObject({
      state: 'pending_discovery',
      source: { tier: 'managed', origin: 'managed:catalog' },
      identity: null,
      fetchedAt: null,
    });

    const held = rest('agent', 'GET', catalogUrl('?wait=60'), undefined, { 'if-none-match': pending.etag });
    await discoverAndSubmit('everything');
    const answered = await held;
    expect(answered.status).toBe(200);
    expect(answered.etag).not.toBe(pending.etag);
    const catalog = workspaceCatalog.parse(answered.body);
    const everything = serverNamed(catalog, 'everything');
    expect(everything).toMatchObject({
      state: 'discovered',
      discoveredFor: 'workspace',
      complete: true,
      stale: false,
    });
    expect(everything?.identity?.server).toBe('everything');
    expect(everything?.fetchedAt).not.toBeNull();
    const names = catalog.document.servers.flatMap((server) => server.tools.map((tool) => tool.name));
    expect(names).toContain('mcp__everything__echo');
    for (const name of names) expect(name).toMatch(/^mcp__everything__[A-Za-z0-9_-]+$/);
    // Narrowed schemas, axes, prompts and resources come with it.
    const echo = catalog.document.servers[0]?.tools.find((tool) => tool.name === 'mcp__everything__echo');
    expect(echo).toMatchObject({ inputSchema: { type: 'object' }, axes: { effect: expect.any(String) } });
    expect(catalog.document.servers[0]?.prompts.length).toBeGreaterThan(0);
    expect(catalog.document.servers[0]?.resources.length).toBeGreaterThan(0);
    // The definition's env value (a secret the lease materialized) is in no catalog.
    expect(answered.text).not.toContain(CANARY);
  });

  it('answers 304 to the same ETag, for every caller, and a new tag only when the catalog changed', async () => {
    for (const who of ['agent', 'admin', 'alice', 'worker'] as const) {
      const first = await catalogOf(who);
      const again = await rest(who, 'GET', catalogUrl(), undefined, { 'if-none-match': first.etag });
      expect({ who, status: again.status, etag: again.etag, body: again.text }).toEqual({
        who,
        status: 304,
        etag: first.etag,
        body: '',
      });
      expect((await catalogOf(who)).etag).toBe(first.etag);
    }
  });

  it("shows a per-user server to its principal alone: never to another member, an agent or the workspace's reader", async () => {
    await approve('alicetool', 'principal', 'alice');
    expect(serverNamed((await catalogOf('alice')).catalog, 'alicetool')).toMatchObject({
      state: 'pending_discovery',
    });
    await submitMade('alicetool', alice.id, ['lookup']);

    const mine = await catalogOf('alice');
    expect(mine.catalog.principalUserId).toBe(alice.id);
    expect(serverNamed(mine.catalog, 'alicetool')).toMatchObject({
      state: 'discovered',
      discoveredFor: 'principal',
      source: { tier: 'user' },
    });
    expect(mine.text).toContain('mcp__alicetool__lookup');
    // Her server's header value (a secret) is in no catalog.
    expect(mine.text).not.toContain(CANARY);
    // A worker or the gateway acting for her sees what she sees (the gateway in the workspace's tenant).
    expect((await catalogOf('worker', `?principal=${alice.id}`)).text).toContain('mcp__alicetool__lookup');
    const viaGateway = await catalogOf('gateway', `?principal=${alice.id}`);
    expect(viaGateway.catalog.principalUserId).toBe(alice.id);
    expect(viaGateway.text).toContain('mcp__alicetool__lookup');

    for (const [who, query] of [
      ['bob', ''],
      ['agent', ''],
      ['worker', ''],
      ['worker', `?principal=${bob.id}`],
      ['gateway', ''],
    ] as const) {
      const other = await catalogOf(who, query);
      expect({ who, query, servers: other.catalog.servers.map((s) => s.name) }).toEqual({
        who,
        query,
        servers: ['everything'],
      });
      expect(other.text).not.toContain('alicetool');
    }
  });

  it('drops a server whose approval is revoked, answering a waiting long-poll early', async () => {
    const before = await catalogOf('agent');
    expect(serverNamed(before.catalog, 'everything')?.state).toBe('discovered');

    const held = rest('agent', 'GET', catalogUrl('?wait=60'), undefined, { 'if-none-match': before.etag });
    await ok(
      rest('admin', 'POST', `/v1/approvals/${everythingApprovalId}/revoke`, { reason: 'no longer needed' }),
      200,
    );
    const answered = await held;
    expect(answered.status).toBe(200);
    const after = workspaceCatalog.parse(answered.body);
    expect(after.servers).toEqual([]);
    expect(after.document.servers).toEqual([]);
  });

  it('drops a server whose definition changed (its approval no longer holds), answering a long-poll early', async () => {
    const before = await catalogOf('alice');
    expect(serverNamed(before.catalog, 'alicetool')?.state).toBe('discovered');
    const held = rest('alice', 'GET', catalogUrl('?wait=60'), undefined, { 'if-none-match': before.etag });
    await ok(
      rest('alice', 'PUT', '/v1/definition-sources', {
        tier: 'user',
        expectedVersion: aliceSource.body.version as number,
        document: { mcpServers: { alicetool: { type: 'http', url: 'https://mcp.public.example/alice/v2' } } },
      }),
      200,
    );
    const answered = await held;
    expect(answered.status).toBe(200);
    expect(answered.etag).not.toBe(before.etag);
    expect(serverNamed(workspaceCatalog.parse(answered.body), 'alicetool')).toBeUndefined();
  });

  it('refuses what the caller may not read: another tenant, another principal of a person or an agent, strangers', async () => {
    const foreign = await rest('globexOwner', 'GET', catalogUrl());
    expect({ status: foreign.status, code: foreign.body.code }).toEqual({ status: 404, code: 'not_found' });
    const others = await rest('alice', 'GET', catalogUrl(`?principal=${bob.id}`));
    expect({ status: others.status, code: others.body.code }).toEqual({ status: 403, code: 'forbidden' });
    const agent = await rest('agent', 'GET', catalogUrl(`?principal=${alice.id}`));
    expect({ status: agent.status, code: agent.body.code }).toEqual({ status: 403, code: 'forbidden' });
    const stranger = await rest('worker', 'GET', catalogUrl(`?principal=${randomUUID()}`));
    expect({ status: stranger.status, code: stranger.body.code }).toEqual({ status: 404, code: 'not_found' });
    // A gateway on a pool closed to the workspace's tenant: the workspace does not exist for it.
    const closed = await rest('gatewayElsewhere', 'GET', catalogUrl(`?principal=${alice.id}`));
    expect({ status: closed.status, code: closed.body.code }).toEqual({ status: 404, code: 'not_found' });
    const gatewayStranger = await rest('gateway', 'GET', catalogUrl(`?principal=${randomUUID()}`));
    expect(gatewayStranger.status).toBe(404);
    const wait = await rest('agent', 'GET', catalogUrl('?wait=61'));
    expect({ status: wait.status, code: wait.body.code }).toEqual({ status: 400, code: 'validation_failed' });
  });
});

describe("catalog.get applies the definition's catalog options (decision 0101)", () => {
  it('shows the axes, faces and content origin the definition declares, whatever the snapshot said', async () => {
    // The same server, now declared with options (managed tier: the deployment plane may declare contentOrigin).
    await ok(
      rest('admin', 'PUT', '/v1/definition-sources', {
        tier: 'managed',
        name: 'options',
        document: {
          mcpServers: {
            axed: {
              type: 'stdio',
              command: EVERYTHING,
              args: ['stdio'],
              toolAxes: { echo: { effect: 'read', egress: false }, 'get-sum': { effect: 'idempotent' } },
              toolFaces: {
                echo: { renderHints: { displayName: 'Echo back' }, ruleFace: { keys: ['message'] } },
                'get-sum': { pathTarget: { param: 'nowhere' } },
              },
              contentOrigin: 'local',
            },
          },
        },
      }),
      200,
    );
    await approve('axed', 'workspace');
    // The worker's discovery applies no options (its lease carries none): the API applies the definition's.
    const discovered = await discoverAndSubmit('axed');
    const posted = discovered.servers[0];
    expect(posted?.contentOrigin).toBe('external');
    expect(posted?.tools.find((tool) => tool.remoteName === 'echo')?.axes).toEqual({
      effect: 'write',
      egress: true,
    });

    const expectDeclared = (catalog: WorkspaceCatalogV1) => {
      const server = catalog.document.servers.find((s) => s.identity.server === 'axed');
      expect(server).toMatchObject({ contentOrigin: 'local', contentOriginDeclared: true });
      const tool = (remote: string) => server?.tools.find((t) => t.remoteName === remote);
      expect(tool('echo')).toMatchObject({
        name: 'mcp__axed__echo',
        axes: { effect: 'read', egress: false },
        axesFrom: { effect: 'caller', egress: 'caller', irreversibility: 'absent' },
        face: { renderHints: { displayName: 'Echo back' }, ruleFace: { keys: ['message'] } },
        contentOrigin: 'local',
      });
      // An effect lowered with egress left on is the fail-closed contradiction; a face that does not fit is none.
      expect(tool('get-sum')).toMatchObject({
        axes: { effect: 'write', egress: true },
        contentOrigin: 'local',
      });
      expect(tool('get-sum')).not.toHaveProperty('face');
      expect(server?.tools.every((t) => t.contentOrigin === 'local')).toBe(true);
      expect(server?.diagnostics).toEqual(
        expect.arrayContaining([
          { code: 'tool_axes_contradiction', server: 'axed', tool: 'get-sum' },
          expect.objectContaining({ code: 'tool_face_invalid', server: 'axed', tool: 'get-sum' }),
        ]),
      );
    };
    expectDeclared((await catalogOf('agent')).catalog);

    // A snapshot that claims otherwise (a worker of another version, or lying) changes none of it.
    const claimed = {
      ...discovered,
      servers: discovered.servers.map((server) => ({
        ...server,
        contentOrigin: 'execution' as const,
        contentOriginDeclared: true,
        tools: server.tools.map((tool) =>
          tool.remoteName === 'get-sum'
            ? {
                ...tool,
                axes: { effect: 'read' as const, egress: false },
                axesFrom: {
                  effect: 'caller' as const,
                  egress: 'caller' as const,
                  irreversibility: 'absent' as const,
                },
                face: { renderHints: { displayName: 'Claimed' } },
                contentOrigin: 'execution' as const,
              }
            : { ...tool, contentOrigin: 'execution' as const },
        ),
        diagnostics: [],
      })),
    };
    const issued = await ok(rest('worker', 'POST', '/v1/leases', { workspaceId, serverName: 'axed' }), 201);
    const leaseId = issued.body.id as string;
    await ok(rest('worker', 'POST', `/v1/leases/${leaseId}/snapshot`, { document: claimed }), 201);
    await rest('worker', 'POST', `/v1/leases/${leaseId}/release`);
    const after = await catalogOf('agent');
    expect(after.text).not.toContain('Claimed');
    expect(after.text).not.toContain('execution');
    expectDeclared(after.catalog);
  });
});
