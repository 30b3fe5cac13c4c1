import { randomBytes, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { Client } from 'pg';
import type { Scope } from '@gatehouse/commands';
import { createDatabase, insertGatewayToken, type Database } from '@gatehouse/db';
import { createFixedResolver } from '@gatehouse/egress';
import { createLogger, parseConfig } from '@gatehouse/platform';
import {
  createTestDatabase,
  createTestTenant,
  createTestWorkspace,
  testRedisUrl,
  TEST_DATABASE_TIMEOUT_MS,
  type TestDatabase,
  type TestTenant,
  type TestUser,
} from '@gatehouse/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { appendAuditEvent } from '../audit/append-audit-event';
import { mintTokenSecret } from '../auth/api-token-format';
import { mintApiToken } from '../auth/mint-api-token';
import { createMember, mintTestToken, mintWorkerTestToken } from '../commands/testing/surfaces-harness';
import { apiConfigSchema } from '../config/api.config';
import { createApiApp } from '../create-api-app';
import { appendLeaseChange } from '../revocations/lease-change-event';

// Transport leases through the real API (createApiApp: REST + GraphQL, real Postgres and Redis), with the
// operator's WORKER_POOLS, the tenant's HostPolicy and definitions written through the API, a fixed DNS table and
// every log line captured. What it proves: a lease is issued only for an approved server on a pool whose authority
// admits its transport; it is bound to the token that asked (any other token: 404); refusals are typed, audited
// and open an approval request where one is missing; and a secret reaches the lease holder and nothing else.

jest.setTimeout(120_000);

const CANARY = `cnrylease${randomBytes(9).toString('hex')}`;
const VARIABLE_CANARY = `cnryvar${randomBytes(9).toString('hex')}`;
const EVERYTHING = ['npx', '-y', '@modelcontextprotocol/server-everything'];
const DNS = {
  'mcp.public.example': ['93.184.216.34'],
  'internal.example': ['10.2.3.4'],
};

function document() {
  return {
    mcpServers: {
      public: {
        type: 'http',
        url: 'https://mcp.public.example/mcp',
        headers: { Authorization: `Bearer ${CANARY}`, 'X-Api-Token': '${API_TOKEN}' },
        principalHeader: 'X-Gatehouse-Principal',
      },
      pending: { type: 'http', url: 'https://mcp.public.example/pending' },
      bypassed: { type: 'http', url: 'https://mcp.public.example/bypassed' },
      contended: { type: 'http', url: 'https://mcp.public.example/contended' },
      'raced-grant': { type: 'http', url: 'https://mcp.public.example/raced-grant' },
      'raced-revoke': { type: 'http', url: 'https://mcp.public.example/raced-revoke' },
      expiring: { type: 'http', url: 'https://mcp.public.example/expiring' },
      private: { type: 'http', url: 'https://internal.example/mcp' },
      signin: { type: 'http', url: 'https://mcp.public.example/oauth', oauth: { scopes: ['read'] } },
      everything: {
        type: 'stdio',
        command: EVERYTHING[0],
        args: EVERYTHING.slice(1),
        env: { API_KEY: CANARY, OTHER_TOKEN: '${API_TOKEN}' },
      },
    },
  };
}

let testDb: TestDatabase;
let db: Database;
let app: NestFastifyApplication;
let acme: TestTenant;
let globex: TestTenant;
let workspaceId: string;
let globexWorkspaceId: string;
let member: TestUser;
let globexUser: TestUser;
const logLines: string[] = [];
/** Every response body except the issued leases' (which alone may carry the secret). */
const otherBodies: string[] = [];
const leaseBodies: string[] = [];
const tokens = {
  admin: '',
  approver: '',
  member: '',
  agent: '',
  localWorker: '',
  localWorker2: '',
  edgeWorker: '',
  globexWorker: '',
  gateway: '',
  edgeGateway: '',
};
type Who = keyof typeof tokens;

async function rest(who: Who, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
  const response = await app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${tokens[who]}`,
      ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
  });
  const isLease = method === 'POST' && url === '/v1/leases' && response.statusCode === 201;
  (isLease ? leaseBodies : otherBodies).push(response.body);
  return {
    status: response.statusCode,
    headers: response.headers,
    body: JSON.parse(response.body || 'null') as Record<string, unknown>,
  };
}

const lease = (who: Who, serverName: string, extra: Record<string, string> = {}, ws = workspaceId) =>
  rest(who, 'POST', '/v1/leases', { workspaceId: ws, serverName, ...extra });

type LeaseBody = {
  id: string;
  tenantId: string;
  expiresAt: string;
  issuedAt: string;
  pool: string;
  principalUserId: string | null;
  definitionFingerprint: string;
  approvalId: string;
  transport: { v: number; transport: Record<string, unknown> };
  spawnRecheck: Record<string, unknown> | null;
};

async function workerToken(tenant: TestTenant, creator: TestUser, pool: string): Promise<string> {
  return mintWorkerTestToken(db, tenant, creator, { pool, name: `worker ${pool}`, scopes: ['leases:write'] });
}

async function gatewayToken(pool: string): Promise<string> {
  const minted = mintTokenSecret('gateway');
  await insertGatewayToken({
    ownerUrl: testDb.ownerUrl,
    name: `gateway ${pool}`,
    scopes: ['leases:write', 'tokens:introspect'] satisfies Scope[],
    pool,
    secretHash: minted.secretHash,
    prefix: minted.prefix,
    expiresAt: null,
  });
  return minted.secret;
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 3 });
  acme = await createTestTenant(db, { slug: `acme-${randomUUID().slice(0, 8)}` });
  globex = await createTestTenant(db, { slug: `globex-${randomUUID().slice(0, 8)}` });
  const admin = await createMember(db, acme, 'admin');
  const approver = await createMember(db, acme, 'approver');
  member = await createMember(db, acme, 'member');
  globexUser = await createMember(db, globex, 'owner');
  workspaceId = (await createTestWorkspace(db, acme.id)).id;
  globexWorkspaceId = (await createTestWorkspace(db, globex.id)).id;
  tokens.admin = (await mintTestToken(db, acme, admin, { kind: 'user' })).secret;
  tokens.approver = (await mintTestToken(db, acme, approver, { kind: 'user' })).secret;
  tokens.member = (await mintTestToken(db, acme, member, { kind: 'user' })).secret;
  tokens.agent = (
    await mintTestToken(db, acme, admin, {
      kind: 'agent',
      scopes: ['catalog:read'],
      workspaceIds: [workspaceId],
    })
  ).secret;
  tokens.localWorker = await workerToken(acme, admin, 'local');
  tokens.localWorker2 = await workerToken(acme, admin, 'local');
  tokens.edgeWorker = await workerToken(acme, admin, 'edge');
  tokens.globexWorker = await workerToken(globex, globexUser, 'edge');
  tokens.gateway = await gatewayToken('local');
  tokens.edgeGateway = await gatewayToken('edge');
  const workerPools = {
    // Open to every tenant, nothing local: its ceiling forbids stdio.
    edge: { tenants: '*' },
    local: {
      tenants: [acme.slug],
      stdio: true,
      commandCeiling: [EVERYTHING],
      allowedRoots: ['/srv/mcp'],
      runAs: { uid: 10001, gid: 10001 },
      childEnvKeys: ['API_KEY', 'OTHER_TOKEN'],
    },
  };
  const parsed = parseConfig(apiConfigSchema, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'debug',
    DATABASE_URL: testDb.appUrl,
    REDIS_URL: testRedisUrl(),
    GATEHOUSE_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    GATEHOUSE_ACTIVE_KEY_ID: 'k1',
    WORKER_POOLS: JSON.stringify(workerPools),
  });
  if (!parsed.ok) throw new Error(parsed.message);
  const buffer = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  app = await createApiApp(parsed.config, {
    logger: createLogger({ name: 'leases-test', level: 'debug', destination: buffer }),
    egressResolver: createFixedResolver(DNS),
  });
  const policy = await rest('admin', 'PUT', '/v1/host-policy', {
    stdioCommands: [EVERYTHING],
    headerHelpers: [],
    privateCidrs: [],
    traceContextOrigins: [],
    fourEyes: false,
  });
  if (policy.status !== 200) throw new Error(`host policy refused: ${JSON.stringify(policy.body)}`);
  const variable = await rest('admin', 'PUT', '/v1/definition-variables/API_TOKEN', {
    scope: 'tenant',
    value: VARIABLE_CANARY,
  });
  if (variable.status !== 200) throw new Error(`variable refused: ${JSON.stringify(variable.body)}`);
  const source = await rest('admin', 'PUT', '/v1/definition-sources', {
    tier: 'managed',
    name: 'leases',
    document: document(),
  });
  if (source.status !== 200) throw new Error(`source refused: ${JSON.stringify(source.body)}`);
  for (const serverName of [
    'public',
    'private',
    'signin',
    'everything',
    'bypassed',
    'contended',
    'raced-grant',
    'raced-revoke',
  ])
    await approve(serverName);
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await app?.close();
  await db?.close();
  await testDb?.drop();
}, TEST_DATABASE_TIMEOUT_MS);

/** Asks for review of a server in the workspace view and approves what the request shows. */
async function approve(serverName: string, expiresAt?: Date): Promise<string> {
  const opened = await rest('admin', 'POST', `/v1/workspaces/${workspaceId}/approval-requests`, {
    serverName,
    view: 'workspace',
  });
  if (opened.status !== 201) throw new Error(`request refused: ${JSON.stringify(opened.body)}`);
  const identity = opened.body.identity as { key: string; definitionFingerprint: string };
  const decided = await rest(
    'approver',
    'POST',
    `/v1/approval-requests/${opened.body.id as string}/decision`,
    {
      decision: 'approve',
      seenFingerprint: identity.definitionFingerprint,
      seenIdentityKey: identity.key,
      ...(expiresAt === undefined ? {} : { expiresAt: expiresAt.toISOString() }),
    },
  );
  if (decided.status !== 201) throw new Error(`decision refused: ${JSON.stringify(decided.body)}`);
  return decided.body.id as string;
}

/** A change no API makes (time passing), as the database's superuser (row-level security does not hold it). */
async function asSuperuser(sql: string, params: unknown[]): Promise<void> {
  const owner = new Client({ connectionString: testDb.adminUrl });
  await owner.connect();
  try {
    await owner.query(sql, params);
  } finally {
    await owner.end();
  }
}

/** Waits until `count` backends of this test's database wait on a lock, polling pg_stat_activity every 20 ms. */
async function waitForLockWaiters(count: number): Promise<void> {
  const owner = new Client({ connectionString: testDb.adminUrl });
  await owner.connect();
  try {
    for (let waited = 0; waited < 20_000; waited += 20) {
      const result = await owner.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
      );
      if ((result.rows[0]?.n ?? 0) >= count) return;
      await new Promise((done) => setTimeout(done, 20));
    }
    throw new Error('no backend waits on a lock');
  } finally {
    await owner.end();
  }
}

async function auditEvents(action: string): Promise<
  {
    actorId: string | null;
    tokenKind: string | null;
    data: Record<string, unknown>;
    targetId: string | null;
  }[]
> {
  const page = await rest('admin', 'GET', `/v1/audit-events?action=${action}&limit=200`);
  expect(page.status).toBe(200);
  return page.body.items as never;
}

describe('leases.issue', () => {
  it('leases an approved http server to a worker: checked addresses, materialized headers, no-store', async () => {
    const before = Date.now();
    const issued = await lease('localWorker', 'public');
    expect(issued.status).toBe(201);
    expect(issued.headers['cache-control']).toBe('no-store');
    const body = issued.body as unknown as LeaseBody;
    expect(body).toMatchObject({
      tenantId: acme.id,
      pool: 'local',
      principalUserId: null,
      spawnRecheck: null,
    });
    expect(body.transport).toEqual({
      v: 1,
      transport: {
        kind: 'http',
        url: 'https://mcp.public.example/mcp',
        origin: 'https://mcp.public.example:443',
        addresses: ['93.184.216.34'],
        allowInsecureLoopback: false,
        privateRanges: [],
        headers: { Authorization: `Bearer ${CANARY}`, 'X-Api-Token': VARIABLE_CANARY },
        principalHeader: null,
        headersHelper: null,
        startupTimeoutMs: null,
      },
    });
    // Expiry: the short TTL (no approval expiry here), from the issuing time.
    const ttl = Date.parse(body.expiresAt) - Date.parse(body.issuedAt);
    expect(ttl).toBe(5 * 60_000);
    expect(Date.parse(body.issuedAt)).toBeGreaterThanOrEqual(before - 1000);
    // The fingerprint is the one admission.check and the approval name.
    const check = await rest(
      'admin',
      'GET',
      `/v1/workspaces/${workspaceId}/admission-check?serverName=public`,
    );
    expect(body.definitionFingerprint).toBe(check.body.fingerprint);

    const row = await db.withTenant(acme.id, (tx) => tx.lease.findUnique({ where: { id: body.id } }));
    expect(row).toMatchObject({
      workspaceId,
      serverName: 'public',
      tokenKind: 'worker',
      pool: 'local',
      principalUserId: null,
      definitionFingerprint: body.definitionFingerprint,
      approvalId: body.approvalId,
      transport: 'http',
      releasedAt: null,
      revokedAt: null,
    });
    const [event] = (await auditEvents('leases.issued')).filter((e) => e.targetId === body.id);
    expect(event).toMatchObject({
      tokenKind: 'worker',
      data: {
        pool: 'local',
        workspaceId,
        serverName: 'public',
        principalUserId: null,
        definitionFingerprint: body.definitionFingerprint,
        approvalId: body.approvalId,
        sourceOrigin: 'managed:leases',
      },
    });
  });

  it('leases a stdio server on the pool that allows it, with the authority to re-check at spawn', async () => {
    const issued = await lease('localWorker', 'everything');
    expect(issued.status).toBe(201);
    const body = issued.body as unknown as LeaseBody;
    const authority = {
      commands: [EVERYTHING],
      ceiling: [EVERYTHING],
      allowedRoots: ['/srv/mcp'],
      envKeys: ['API_KEY', 'OTHER_TOKEN'],
      runAs: { uid: 10001, gid: 10001 },
    };
    expect(body.transport.transport).toEqual({
      kind: 'stdio',
      command: 'npx',
      args: EVERYTHING.slice(1),
      env: { API_KEY: CANARY, OTHER_TOKEN: VARIABLE_CANARY },
      cwd: '/srv/mcp',
      authority,
      startupTimeoutMs: null,
    });
    expect(body.spawnRecheck).toEqual(authority);
  });

  it('refuses a pool whose ceiling forbids the transport (typed, audited, nothing leased)', async () => {
    const refused = await lease('edgeWorker', 'everything');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      code: 'stdio_refused',
      pool: 'edge',
      reason: 'stdio_not_allowed_on_pool',
    });
    const events = (await auditEvents('leases.refused')).filter((e) => e.data.serverName === 'everything');
    expect(events).toEqual([
      expect.objectContaining({
        tokenKind: 'worker',
        data: expect.objectContaining({
          pool: 'edge',
          code: 'stdio_refused',
          reason: 'stdio_not_allowed_on_pool',
        }),
      }),
    ]);
  });

  it("narrows the pool's env allowlist by the tenant's HostPolicy: the lease carries it, a refused name is named", async () => {
    const policy = {
      stdioCommands: [EVERYTHING],
      headerHelpers: [],
      privateCidrs: [],
      traceContextOrigins: [],
      fourEyes: false,
    };
    const put = (childEnvKeys?: string[] | null) =>
      rest(
        'admin',
        'PUT',
        '/v1/host-policy',
        childEnvKeys === undefined ? policy : { ...policy, childEnvKeys },
      );
    try {
      // Wider than every open pool's list: refused, naming the entry; nothing changes.
      const wider = await put(['API_KEY', 'NPM_CONFIG_*']);
      expect(wider.status).toBe(400);
      expect(wider.body).toMatchObject({
        code: 'outside_operator_ceiling',
        errors: [{ path: 'childEnvKeys.1' }],
      });
      expect((await put(['OTHER_TOKEN', 'API_KEY'])).status).toBe(200);
      const narrowed = await lease('localWorker', 'everything');
      expect(narrowed.status).toBe(201);
      const body = narrowed.body as unknown as LeaseBody;
      expect(body.spawnRecheck).toMatchObject({ envKeys: ['OTHER_TOKEN', 'API_KEY'] });

      expect((await put(['API_KEY'])).status).toBe(200);
      const refused = await lease('localWorker', 'everything');
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({
        code: 'stdio_refused',
        pool: 'local',
        reason: 'env_key_not_allowed',
        key: 'OTHER_TOKEN',
      });
      expect(JSON.stringify(refused.body)).not.toContain(VARIABLE_CANARY);
      const events = (await auditEvents('leases.refused')).filter(
        (e) => e.data.serverName === 'everything' && e.data.reason === 'env_key_not_allowed',
      );
      expect(events).toEqual([
        expect.objectContaining({ data: expect.objectContaining({ envName: 'OTHER_TOKEN' }) }),
      ]);
      // A put without the field (a client that predates it) keeps the narrowing: it never widens.
      expect((await put()).status).toBe(200);
      expect((await lease('localWorker', 'everything')).body).toMatchObject({ key: 'OTHER_TOKEN' });
    } finally {
      // Null: each pool's own list again.
      expect((await put(null)).status).toBe(200);
    }
    expect((await lease('localWorker', 'everything')).status).toBe(201);
  });

  it('refuses a destination the pool does not admit with one class; the operator log names the cause', async () => {
    const since = logLines.length;
    const refused = await lease('localWorker', 'private');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'destination_refused', pool: 'local' });
    expect(JSON.stringify(refused.body)).not.toMatch(/private_destination|10\.2\.3|internal\.example/);
    const logged = logLines.slice(since).join('\n');
    expect(logged).toContain('"reason":"private_destination"');
    expect(logged).toContain('https://internal.example:443');
  });

  it('refuses a server that declares OAuth by name when nobody is signed in to it (needs sign-in)', async () => {
    const refused = await lease('localWorker', 'signin');
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'needs_sign_in', authentication: 'oauth' });
  });

  it('refuses an unapproved server, naming the open approval request for it', async () => {
    const refused = await lease('localWorker', 'pending');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      code: 'not_approved',
      activationState: 'pending',
      reasons: ['no_admission_decision'],
    });
    // Writing the source opened it already: the refusal names that request instead of opening another.
    const requestId = refused.body.approvalRequestId as string;
    const request = await rest('admin', 'GET', `/v1/approval-requests/${requestId}`);
    expect(request.body).toMatchObject({
      status: 'open',
      trigger: 'source_written',
      identity: { serverName: 'pending' },
    });
    const refusals = (await auditEvents('leases.refused')).filter((e) => e.data.serverName === 'pending');
    expect(refusals.map((e) => e.data)).toEqual([
      expect.objectContaining({
        code: 'not_approved',
        reason: 'pending',
        approvalRequestId: requestId,
        pool: 'local',
      }),
    ]);
  });

  it('opens an approval request when the approval expired (once, whoever asks again)', async () => {
    const approvalId = await approve('pending');
    expect((await lease('localWorker', 'pending')).status).toBe(201);
    await asSuperuser(
      "UPDATE approvals SET decided_at = now() - interval '2 hours', expires_at = now() - interval '1 hour' WHERE id = $1",
      [approvalId],
    );
    const refused = await lease('localWorker', 'pending');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      code: 'not_approved',
      activationState: 'pending',
      reasons: ['approval_expired'],
    });
    const requestId = refused.body.approvalRequestId as string;
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const request = await rest('admin', 'GET', `/v1/approval-requests/${requestId}`);
    expect(request.body).toMatchObject({
      status: 'open',
      trigger: 'lease_refused_pending',
      identity: { serverName: 'pending' },
    });
    const opened = (await auditEvents('approvals.requests.opened')).filter((e) => e.targetId === requestId);
    expect(opened).toEqual([
      expect.objectContaining({
        tokenKind: 'worker',
        data: expect.objectContaining({ trigger: 'lease_refused_pending' }),
      }),
    ]);
    const again = await lease('localWorker2', 'pending');
    expect(again.body).toMatchObject({ code: 'not_approved', approvalRequestId: requestId });
  });

  it('answers 404 for a server the view does not list, and for a principal who is no member', async () => {
    expect((await lease('localWorker', 'nope')).body).toMatchObject({ code: 'not_found' });
    for (const principalUserId of [globexUser.id, randomUUID()]) {
      const refused = await lease('localWorker', 'public', { principalUserId });
      expect(refused.status).toBe(404);
    }
  });

  it("never leases in another tenant: a worker of globex gets 404 for acme's workspace", async () => {
    const refused = await lease('globexWorker', 'public');
    expect(refused.status).toBe(404);
    expect(JSON.stringify(refused.body)).not.toContain(acme.id);
  });

  it('never leases outside the workspaces a bound worker token names (404, like a missing workspace)', async () => {
    const elsewhere = (await createTestWorkspace(db, acme.id)).id;
    const bound = await db.withTenant(acme.id, async (tx) => {
      const creator = await tx.membership.findFirstOrThrow({ where: { role: 'admin' } });
      const minted = await mintApiToken(tx, {
        tenantId: acme.id,
        createdById: creator.userId,
        name: 'worker bound',
        grant: {
          kind: 'worker',
          userId: null,
          scopes: ['leases:write'],
          workspaceIds: [workspaceId],
          pool: 'local',
        },
        expiresAt: null,
      });
      return minted.secret;
    });
    const ask = (ws: string) =>
      app.inject({
        method: 'POST',
        url: '/v1/leases',
        headers: { authorization: `Bearer ${bound}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ workspaceId: ws, serverName: 'public' }),
      });
    const outside = await ask(elsewhere);
    otherBodies.push(outside.body);
    expect({ status: outside.statusCode, code: outside.json<{ code: string }>().code }).toEqual({
      status: 404,
      code: 'not_found',
    });
    const inside = await ask(workspaceId);
    leaseBodies.push(inside.body);
    expect(inside.statusCode).toBe(201);
  });

  it('is for worker and gateway tokens only', async () => {
    for (const who of ['admin', 'agent'] as const) {
      const refused = await lease(who, 'public');
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ code: 'forbidden_caller' });
    }
  });

  it("lets the gateway lease on a member's behalf in the workspace's tenant, with the principal header", async () => {
    const issued = await lease('gateway', 'public', { principalUserId: member.id });
    expect(issued.status).toBe(201);
    const body = issued.body as unknown as LeaseBody;
    expect(body).toMatchObject({ tenantId: acme.id, principalUserId: member.id, pool: 'local' });
    expect(body.transport.transport.principalHeader).toEqual({
      name: 'X-Gatehouse-Principal',
      value: member.id,
    });
    const row = await db.withTenant(acme.id, (tx) => tx.lease.findUnique({ where: { id: body.id } }));
    expect(row).toMatchObject({ tokenKind: 'gateway', principalUserId: member.id });
    // A gateway whose pool is not open to the workspace's tenant learns nothing about it.
    expect((await lease('gateway', 'public', {}, globexWorkspaceId)).status).toBe(404);
    expect((await lease('gateway', 'public', {}, randomUUID())).status).toBe(404);
  });

  it("leases a member's own secret under the workspace's approval when it changes nothing reviewed (decision 0087)", async () => {
    const own = `cnryown${randomBytes(9).toString('hex')}`;
    const workspaceLease = (await lease('gateway', 'public')).body as unknown as LeaseBody;
    const set = await rest('member', 'PUT', '/v1/definition-variables/API_TOKEN', {
      scope: 'user',
      value: own,
    });
    expect(set.status).toBe(200);
    try {
      // Her own token instead of the tenant's: a secret counts by where it comes from, so the fingerprint and the
      // approval are the workspace's, and her lease carries her own value.
      const issued = await lease('gateway', 'public', { principalUserId: member.id });
      expect(issued.status).toBe(201);
      const body = issued.body as unknown as LeaseBody;
      expect(body).toMatchObject({
        principalUserId: member.id,
        approvalId: workspaceLease.approvalId,
        definitionFingerprint: workspaceLease.definitionFingerprint,
      });
      expect(JSON.stringify(body.transport)).toContain(own);
      expect(JSON.stringify(body.transport)).not.toContain(VARIABLE_CANARY);
      // And no request opened for her: there is nothing new to review.
      const open = await db.withTenant(acme.id, (tx) =>
        tx.approvalRequest.count({ where: { serverName: 'public', principalUserId: member.id } }),
      );
      expect(open).toBe(0);
    } finally {
      await rest('member', 'DELETE', '/v1/definition-variables/API_TOKEN?scope=user');
    }
  });
});

describe('leases.renew and leases.release', () => {
  it('only the holding token renews or releases; any other token gets 404, then release ends the lease', async () => {
    const issued = await lease('localWorker', 'public');
    const id = (issued.body as unknown as LeaseBody).id;
    for (const who of ['localWorker2', 'globexWorker', 'gateway', 'edgeWorker'] as const) {
      for (const action of ['renew', 'release']) {
        const refused = await rest(who, 'POST', `/v1/leases/${id}/${action}`, {});
        expect({ who, action, status: refused.status, code: refused.body.code }).toEqual({
          who,
          action,
          status: 404,
          code: 'not_found',
        });
      }
    }
    const renewed = await rest('localWorker', 'POST', `/v1/leases/${id}/renew`, {});
    expect(renewed.status).toBe(200);
    expect(renewed.body).toMatchObject({ id, releasedAt: null });
    expect(renewed.body.renewedAt).not.toBeNull();

    const released = await rest('localWorker', 'POST', `/v1/leases/${id}/release`, {});
    expect(released.status).toBe(200);
    expect(released.body.releasedAt).not.toBeNull();
    const again = await rest('localWorker', 'POST', `/v1/leases/${id}/release`, {});
    expect(again.body).toEqual(released.body);
    const after = await rest('localWorker', 'POST', `/v1/leases/${id}/renew`, {});
    expect(after.status).toBe(409);
    expect(after.body).toMatchObject({ code: 'lease_ended', leaseState: 'released' });
  });

  it('lets a gateway renew and release the lease it holds (tenant from the lease)', async () => {
    const issued = await lease('gateway', 'public', { principalUserId: member.id });
    const id = (issued.body as unknown as LeaseBody).id;
    expect((await rest('edgeGateway', 'POST', `/v1/leases/${id}/renew`, {})).status).toBe(404);
    expect((await rest('gateway', 'POST', `/v1/leases/${id}/renew`, {})).status).toBe(200);
    expect((await rest('gateway', 'POST', `/v1/leases/${id}/release`, {})).status).toBe(200);
  });

  it('revoking the approval revokes the lease row at once (the ledger event), so renewing is refused', async () => {
    const issued = await lease('localWorker', 'everything');
    const body = issued.body as unknown as LeaseBody;
    const revoked = await rest('admin', 'POST', `/v1/approvals/${body.approvalId}/revoke`, {
      reason: 'no longer needed',
    });
    expect(revoked.status).toBe(200);
    // The row ended in the revocation's own transaction, before any holder renewed or heard of it.
    const row = await db.withTenant(acme.id, (tx) => tx.lease.findUnique({ where: { id: body.id } }));
    expect(row?.revokedAt).not.toBeNull();
    expect(row?.revokedReason).toBe('approval_revoked');
    const renewal = await rest('localWorker', 'POST', `/v1/leases/${body.id}/renew`, {});
    expect(renewal.status).toBe(409);
    expect(renewal.body).toMatchObject({
      code: 'lease_ended',
      leaseState: 'revoked',
      reason: 'approval_revoked',
    });
    expect((await rest('localWorker', 'POST', `/v1/leases/${body.id}/renew`, {})).body).toMatchObject({
      code: 'lease_ended',
      leaseState: 'revoked',
    });
    // And no new lease is issued on the revoked approval.
    expect((await lease('localWorker', 'everything')).body).toMatchObject({
      code: 'not_approved',
      activationState: 'revoked',
    });
  });

  it('re-decides activation on renew: an approval revoked past the API (no ledger event) still refuses', async () => {
    const issued = await lease('localWorker', 'bypassed');
    const body = issued.body as unknown as LeaseBody;
    await asSuperuser('UPDATE approvals SET revoked_at = now(), revoked_by = decided_by WHERE id = $1', [
      body.approvalId,
    ]);
    const before = await db.withTenant(acme.id, (tx) => tx.lease.findUnique({ where: { id: body.id } }));
    expect(before?.revokedAt).toBeNull();
    const renewal = await rest('localWorker', 'POST', `/v1/leases/${body.id}/renew`, {});
    expect(renewal.status).toBe(409);
    expect(renewal.body).toMatchObject({
      code: 'lease_ended',
      leaseState: 'revoked',
      reason: 'activation_revoked',
    });
    const after = await db.withTenant(acme.id, (tx) => tx.lease.findUnique({ where: { id: body.id } }));
    expect(after?.revokedReason).toBe('activation_revoked');
  });

  it("never outlives its approval's expiry: issued and renewed leases end by then", async () => {
    const approvalExpiresAt = new Date(Date.now() + 120_000);
    await approve('expiring', approvalExpiresAt);
    const issued = await lease('localWorker', 'expiring');
    expect(issued.status).toBe(201);
    const body = issued.body as unknown as LeaseBody;
    // The TTL (5 minutes) is longer than what is left of the approval: the approval's expiry wins.
    expect(new Date(body.expiresAt).getTime()).toBe(approvalExpiresAt.getTime());
    const renewed = await rest('localWorker', 'POST', `/v1/leases/${body.id}/renew`, {});
    expect(renewed.status).toBe(200);
    expect(new Date(renewed.body.expiresAt as string).getTime()).toBe(approvalExpiresAt.getTime());
  });

  it('never deadlocks with a change that ends the lease while it renews (one lock order: audit head, then lease)', async () => {
    const issued = await lease('localWorker', 'contended');
    const id = (issued.body as unknown as LeaseBody).id;
    // A change as a definition write makes it: its audit (the head lock) first, then the event ending the lease.
    let renewal: Promise<Awaited<ReturnType<typeof rest>>> | undefined;
    await db.withTenant(acme.id, async (tx) => {
      await appendAuditEvent(tx, {
        actor: { type: 'system', id: null, tokenKind: null },
        action: 'test.contended',
        target: { type: 'lease', id },
        outcome: 'success',
      });
      renewal = rest('localWorker', 'POST', `/v1/leases/${id}/renew`, {});
      // The renewal is under way and waits on a lock this transaction holds (Postgres says so, no event does).
      await waitForLockWaiters(1);
      await appendLeaseChange(tx, 'overlay_changed', { workspaceId, serverName: 'contended' });
    });
    const answered = await renewal;
    expect(answered?.status).toBe(409);
    expect(answered?.body).toMatchObject({
      code: 'lease_ended',
      leaseState: 'revoked',
      reason: 'overlay_changed',
    });
  });

  /**
   * A revoke racing an issuance, forced in both orders by a transaction of the test that holds the tenant's audit
   * head (the lock both take before they write): each waits on it, in the order they are started, which Postgres
   * shows as lock waiters. Whatever the order, no live lease may rest on a revoked approval.
   */
  async function raceRevokeAndIssue(serverName: string, first: 'issue' | 'revoke') {
    const warm = await lease('localWorker', serverName);
    expect(warm.status).toBe(201);
    const approvalId = (warm.body as unknown as LeaseBody).approvalId;
    let issued: Promise<Awaited<ReturnType<typeof rest>>> | undefined;
    let revoked: Promise<Awaited<ReturnType<typeof rest>>> | undefined;
    const revoke = () => rest('admin', 'POST', `/v1/approvals/${approvalId}/revoke`, { reason: 'raced' });
    await db.withTenant(acme.id, async (tx) => {
      await appendAuditEvent(tx, {
        actor: { type: 'system', id: null, tokenKind: null },
        action: 'test.raced',
        target: { type: 'approval', id: approvalId },
        outcome: 'success',
      });
      if (first === 'issue') {
        // The issuance has read an approval in force and waits to write; the revoke then changes the approval
        // (uncommitted) and waits behind it.
        issued = lease('localWorker', serverName);
        await waitForLockWaiters(1);
        revoked = revoke();
        await waitForLockWaiters(2);
      } else {
        // The revoke has changed the approval (uncommitted) and waits to end leases; the issuance reads the
        // approval as still in force and waits behind it.
        revoked = revoke();
        await waitForLockWaiters(1);
        issued = lease('localWorker', serverName);
        await waitForLockWaiters(2);
      }
    });
    const [issuedAnswer, revokedAnswer] = await Promise.all([issued, revoked]);
    expect(revokedAnswer?.status).toBe(200);
    const live = await db.withTenant(acme.id, (tx) =>
      tx.lease.findMany({ where: { approvalId, revokedAt: null } }),
    );
    expect(live).toEqual([]);
    return issuedAnswer;
  }

  it('never leaves a live lease on an approval revoked while it was issued (issuance first)', async () => {
    const answer = await raceRevokeAndIssue('raced-grant', 'issue');
    // Issued before the revoke could end anything, then ended by it with the others.
    expect(answer?.status).toBe(201);
    const row = await db.withTenant(acme.id, (tx) =>
      tx.lease.findUnique({ where: { id: (answer?.body as unknown as LeaseBody).id } }),
    );
    expect(row?.revokedReason).toBe('approval_revoked');
  });

  it('never leaves a live lease on an approval revoked while it was issued (revoke first)', async () => {
    const answer = await raceRevokeAndIssue('raced-revoke', 'revoke');
    // Decided on an approval in force, refused when the write saw it revoked: typed and audited.
    expect(answer?.status).toBe(403);
    expect(answer?.body).toMatchObject({ code: 'not_approved', activationState: 'revoked' });
    const refusals = await auditEvents('leases.refused');
    expect(
      refusals.some((event) => event.data.serverName === 'raced-revoke' && event.data.reason === 'revoked'),
    ).toBe(true);
  });

  it('refuses renewing an expired lease', async () => {
    const issued = await lease('localWorker', 'public');
    const id = (issued.body as unknown as LeaseBody).id;
    await asSuperuser(
      "UPDATE leases SET issued_at = now() - interval '2 hours', expires_at = now() - interval '1 hour' WHERE id = $1",
      [id],
    );
    const renewal = await rest('localWorker', 'POST', `/v1/leases/${id}/renew`, {});
    expect(renewal.body).toMatchObject({ code: 'lease_ended', leaseState: 'expired' });
  });

  it('answers over GraphQL too: another token renewing is not found', async () => {
    const issued = await lease('localWorker', 'public');
    const id = (issued.body as unknown as LeaseBody).id;
    const response = await app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { authorization: `Bearer ${tokens.localWorker2}`, 'content-type': 'application/json' },
      payload: JSON.stringify({
        query: `mutation { renewLease(input: { leaseId: "${id}" }) { id expiresAt } }`,
      }),
    });
    otherBodies.push(response.body);
    const gql = JSON.parse(response.body) as { errors?: { extensions?: { code?: string } }[] };
    expect(gql.errors?.[0]?.extensions?.code).toBe('not_found');
  });
});

describe('the secret canary', () => {
  it('leaves an audit chain that verifies: issued rows appended by the database, refused ones by the JS append', async () => {
    expect((await auditEvents('leases.issued')).length).toBeGreaterThan(0);
    expect((await auditEvents('leases.refused')).length).toBeGreaterThan(0);
    const verified = await rest('admin', 'GET', '/v1/audit-events/verify');
    expect(verified).toMatchObject({ status: 200, body: { ok: true } });
  });

  it('reaches the lease holder in the lease response and nowhere else: logs, audit, other responses, columns', async () => {
    expect(leaseBodies.length).toBeGreaterThan(3);
    expect(leaseBodies.filter((body) => body.includes(CANARY)).length).toBeGreaterThan(3);
    expect(leaseBodies.some((body) => body.includes(VARIABLE_CANARY))).toBe(true);
    expect(otherBodies.length).toBeGreaterThan(20);
    for (const canary of [CANARY, VARIABLE_CANARY]) {
      expect(otherBodies.join('\n')).not.toContain(canary);
      expect(logLines.join('\n')).not.toContain(canary);
    }
    // Every column of every lease and audit row, as text (the superuser's connection sees all tenants).
    const owner = new Client({ connectionString: testDb.adminUrl });
    await owner.connect();
    try {
      for (const table of ['leases', 'audit_events', 'approval_requests', 'approvals']) {
        const rows = await owner.query(`SELECT row_to_json(t)::text AS row FROM "${table}" AS t`);
        const text = rows.rows.map((r: { row: string }) => r.row).join('\n');
        expect({ table, canary: text.includes(CANARY) || text.includes(VARIABLE_CANARY) }).toEqual({
          table,
          canary: false,
        });
        if (table === 'leases') expect(rows.rowCount).toBeGreaterThan(3);
      }
    } finally {
      await owner.end();
    }
  });
});
