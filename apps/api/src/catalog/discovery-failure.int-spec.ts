import { randomBytes, randomUUID } from 'node:crypto';
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
import { mintTokenSecret } from '../auth/api-token-format';
import { createMember, mintTestToken, mintWorkerTestToken } from '../commands/testing/surfaces-harness';
import { apiConfigSchema } from '../config/api.config';
import { createApiApp } from '../create-api-app';

// catalog.reportFailure through the real API (REST, real Postgres and Redis; decision 0142): a worker reports why
// it could not discover the server of the lease it holds. Authorised like catalog.submit (only the lease's own
// token, never after the lease ended, never another tenant's); the body is two closed words (anything else a typed
// 400); the catalog shows the failure on the pending server, and a snapshot of the same key clears it.

jest.setTimeout(120_000);

let testDb: TestDatabase;
let db: Database;
let app: NestFastifyApplication;
let acme: TestTenant;
let globex: TestTenant;
let workspaceId: string;
let globexWorkspaceId: string;
const tokens = {
  admin: '',
  approver: '',
  worker: '',
  worker2: '',
  globexWorker: '',
  globexOwner: '',
  gateway: '',
};
type Who = keyof typeof tokens;

async function rest(
  who: Who,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) {
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
  return {
    status: response.statusCode,
    etag: response.headers.etag as string | undefined,
    contentType: String(response.headers['content-type'] ?? ''),
    body: JSON.parse(response.body || 'null') as Record<string, unknown>,
  };
}

function catalogOf(server: string) {
  return {
    v: 1,
    complete: true,
    stale: false,
    servers: [
      {
        identity: { server, protocolVersion: '2025-06-18', serverVersion: '1.2.3' },
        source: { tier: 'managed', origin: 'managed:catalog' },
        contentOrigin: 'external',
        contentOriginDeclared: false,
        complete: true,
        stale: false,
        fetchedAt: new Date().toISOString(),
        tools: [],
        prompts: [],
        resources: [],
        resourceTemplates: [],
        diagnostics: [],
      },
    ],
    diagnostics: [],
  };
}

const workerToken = (tenant: TestTenant, creator: TestUser) =>
  mintWorkerTestToken(db, tenant, creator, {
    pool: 'local',
    name: 'worker',
    scopes: ['leases:write', 'snapshots:write'],
  });

const approvals = { revocable: '' };

async function approve(
  serverName: string,
  space = workspaceId,
  who: Who = 'admin',
  decider: Who = 'approver',
) {
  const opened = await rest(who, 'POST', `/v1/workspaces/${space}/approval-requests`, {
    serverName,
    view: 'workspace',
  });
  if (opened.status !== 201) throw new Error(`request refused: ${JSON.stringify(opened.body)}`);
  const identity = opened.body.identity as { key: string; definitionFingerprint: string };
  const decided = await rest(decider, 'POST', `/v1/approval-requests/${opened.body.id as string}/decision`, {
    decision: 'approve',
    seenFingerprint: identity.definitionFingerprint,
    seenIdentityKey: identity.key,
  });
  if (decided.status !== 201) throw new Error(`decision refused: ${JSON.stringify(decided.body)}`);
  return decided.body.id as string;
}

const SERVERS = {
  mcpServers: {
    refusing: { type: 'http', url: 'https://mcp.public.example/refusing' },
    healed: { type: 'http', url: 'https://mcp.public.example/healed' },
    revocable: { type: 'http', url: 'https://mcp.public.example/revocable' },
  },
};

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 3 });
  acme = await createTestTenant(db, { slug: `acme-${randomUUID().slice(0, 8)}` });
  globex = await createTestTenant(db, { slug: `globex-${randomUUID().slice(0, 8)}` });
  const admin = await createMember(db, acme, 'admin');
  const approver = await createMember(db, acme, 'approver');
  const globexOwner = await createMember(db, globex, 'owner');
  workspaceId = (await createTestWorkspace(db, acme.id)).id;
  globexWorkspaceId = (await createTestWorkspace(db, globex.id)).id;
  tokens.admin = (await mintTestToken(db, acme, admin, { kind: 'user' })).secret;
  tokens.approver = (await mintTestToken(db, acme, approver, { kind: 'user' })).secret;
  tokens.globexOwner = (await mintTestToken(db, globex, globexOwner, { kind: 'user' })).secret;
  tokens.worker = await workerToken(acme, admin);
  tokens.worker2 = await workerToken(acme, admin);
  tokens.globexWorker = await workerToken(globex, globexOwner);
  const gateway = mintTokenSecret('gateway');
  await insertGatewayToken({
    ownerUrl: testDb.ownerUrl,
    name: 'gateway local',
    scopes: ['leases:write', 'snapshots:write'],
    pool: 'local',
    secretHash: gateway.secretHash,
    prefix: gateway.prefix,
    expiresAt: null,
  });
  tokens.gateway = gateway.secret;
  const parsed = parseConfig(apiConfigSchema, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'error',
    DATABASE_URL: testDb.appUrl,
    REDIS_URL: testRedisUrl(),
    GATEHOUSE_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    GATEHOUSE_ACTIVE_KEY_ID: 'k1',
    WORKER_POOLS: JSON.stringify({ local: { tenants: '*' } }),
  });
  if (!parsed.ok) throw new Error(parsed.message);
  app = await createApiApp(parsed.config, {
    logger: createLogger({ name: 'discovery-failure-test', level: 'error' }),
    egressResolver: createFixedResolver({ 'mcp.public.example': ['93.184.216.34'] }),
  });
  for (const who of ['admin', 'globexOwner'] as const) {
    const source = await rest(who, 'PUT', '/v1/definition-sources', {
      tier: 'managed',
      name: 'catalog',
      document: SERVERS,
    });
    if (source.status !== 200) throw new Error(`source refused: ${JSON.stringify(source.body)}`);
  }
  await approve('refusing');
  await approve('healed');
  approvals.revocable = await approve('revocable');
  await approve('refusing', globexWorkspaceId, 'globexOwner', 'globexOwner');
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await app?.close();
  await db?.close();
  await testDb?.drop();
}, TEST_DATABASE_TIMEOUT_MS);

async function leaseFor(who: Who, serverName: string, space = workspaceId) {
  const issued = await rest(who, 'POST', '/v1/leases', { workspaceId: space, serverName });
  expect(issued.status).toBe(201);
  return issued.body as { id: string; definitionFingerprint: string };
}

const REFUSED = { failureClass: 'protocol', reason: 'protocol_version_refused' };
const report = (who: Who, leaseId: string, body: unknown = REFUSED) =>
  rest(who, 'POST', `/v1/leases/${leaseId}/discovery-failure`, body);

type CatalogServer = { name: string; state: string; discoveryFailure?: Record<string, unknown> };
async function catalogServer(name: string, who: Who = 'admin', space = workspaceId) {
  const read = await rest(who, 'GET', `/v1/workspaces/${space}/catalog`);
  expect(read.status).toBe(200);
  return (read.body.servers as CatalogServer[]).find((server) => server.name === name);
}

const failureRows = (tenant: TestTenant) =>
  db.withTenant(tenant.id, (tx) => tx.catalogDiscoveryFailure.findMany());

describe('catalog.reportFailure', () => {
  it('stores the failure under the lease, and the catalog shows it on the pending server (a new tag)', async () => {
    const before = await rest('admin', 'GET', `/v1/workspaces/${workspaceId}/catalog`);
    const lease = await leaseFor('worker', 'refusing');
    const reported = await report('worker', lease.id);
    expect(reported.status).toBe(201);
    expect(reported.body).toMatchObject({
      leaseId: lease.id,
      workspaceId,
      serverName: 'refusing',
      definitionFingerprint: lease.definitionFingerprint,
      principalUserId: null,
      failure: {
        failureClass: 'protocol',
        reason: 'protocol_version_refused',
        detail: 'the server refused every protocol version we speak',
      },
    });

    // The tag the client held before names the old body: it gets the new one, not a 304.
    const after = await rest('admin', 'GET', `/v1/workspaces/${workspaceId}/catalog`, undefined, {
      'if-none-match': before.etag ?? '',
    });
    expect(after.status).toBe(200);
    const server = (after.body.servers as CatalogServer[]).find((s) => s.name === 'refusing');
    expect(server).toMatchObject({
      state: 'pending_discovery',
      discoveryFailure: {
        failureClass: 'protocol',
        reason: 'protocol_version_refused',
        detail: 'the server refused every protocol version we speak',
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    });
    // A server nobody reported on carries no failure at all (the field is absent, not null).
    expect(await catalogServer('healed')).not.toHaveProperty('discoveryFailure');

    // Another report for the same key replaces the row.
    expect((await report('worker', lease.id, { failureClass: 'auth', reason: 'auth_refused' })).status).toBe(
      201,
    );
    const rows = (await failureRows(acme)).filter((row) => row.serverName === 'refusing');
    expect(rows.map((row) => [row.failureClass, row.reason, row.leaseId])).toEqual([
      ['auth', 'auth_refused', lease.id],
    ]);
    expect((await catalogServer('refusing'))?.discoveryFailure).toMatchObject({ reason: 'auth_refused' });
    await report('worker', lease.id);
  });

  it('is the same command over GraphQL (reportDiscoveryFailure), and the catalog field is null there when absent', async () => {
    const lease = await leaseFor('worker', 'refusing');
    const mutation = `mutation { reportDiscoveryFailure(input: { leaseId: "${lease.id}", failureClass: "protocol", reason: "protocol_version_refused" }) { leaseId serverName failure { failureClass reason detail } } }`;
    const answered = await rest('worker', 'POST', '/graphql', { query: mutation });
    expect(answered.body).toEqual({
      data: {
        reportDiscoveryFailure: {
          leaseId: lease.id,
          serverName: 'refusing',
          failure: {
            failureClass: 'protocol',
            reason: 'protocol_version_refused',
            detail: 'the server refused every protocol version we speak',
          },
        },
      },
    });
    const bad = await rest('worker', 'POST', '/graphql', {
      query: mutation.replace('"protocol_version_refused"', '"it broke at 10.0.0.7"'),
    });
    expect(JSON.stringify(bad.body)).toContain('validation_failed');
    const read = await rest('admin', 'POST', '/graphql', {
      query: `{ workspaceCatalog(input: { workspaceId: "${workspaceId}" }) { servers { name state discoveryFailure { reason } } } }`,
    });
    const servers = (read.body.data as { workspaceCatalog: { servers: Record<string, unknown>[] } })
      .workspaceCatalog.servers;
    expect(servers.find((s) => s.name === 'refusing')?.discoveryFailure).toEqual({
      reason: 'protocol_version_refused',
    });
    expect(servers.find((s) => s.name === 'healed')?.discoveryFailure).toBeNull();
  });

  it('is cleared by a snapshot of the same key, in the snapshot’s transaction', async () => {
    const lease = await leaseFor('worker', 'healed');
    expect((await report('worker', lease.id)).status).toBe(201);
    expect((await catalogServer('healed'))?.discoveryFailure).toBeDefined();
    const submitted = await rest('worker', 'POST', `/v1/leases/${lease.id}/snapshot`, {
      document: catalogOf('healed'),
    });
    expect(submitted.status).toBe(201);
    expect((await failureRows(acme)).filter((row) => row.serverName === 'healed')).toEqual([]);
    const server = await catalogServer('healed');
    expect(server?.state).toBe('discovered');
    expect(server).not.toHaveProperty('discoveryFailure');
    // The other server's failure stays.
    expect((await catalogServer('refusing'))?.discoveryFailure).toBeDefined();
  });

  it.each([
    ['an unknown class', { failureClass: 'cosmic', reason: 'protocol_version_refused' }],
    ['an unknown reason word', { failureClass: 'protocol', reason: 'it_broke' }],
    ['free text as the reason', { failureClass: 'protocol', reason: 'connect ECONNREFUSED 10.0.0.7:443' }],
    ['a field beyond the two words', { ...REFUSED, detail: 'Authorization: Bearer abc' }],
    ['no class', { reason: 'protocol_version_refused' }],
  ])('refuses %s with a typed 400 problem, storing nothing', async (_label, body) => {
    const lease = await leaseFor('worker', 'revocable');
    const refused = await report('worker', lease.id, body);
    expect({ status: refused.status, code: refused.body.code }).toEqual({
      status: 400,
      code: 'validation_failed',
    });
    expect(refused.contentType).toContain('application/problem+json');
    expect((await failureRows(acme)).filter((row) => row.serverName === 'revocable')).toEqual([]);
  });

  it('refuses a lease it does not hold: none, another token’s, another tenant’s (404)', async () => {
    const lease = await leaseFor('worker', 'refusing');
    expect((await report('worker', randomUUID())).status).toBe(404);
    const other = await report('worker2', lease.id);
    expect({ status: other.status, code: other.body.code }).toEqual({ status: 404, code: 'not_found' });
    const foreign = await report('globexWorker', lease.id);
    expect({ status: foreign.status, code: foreign.body.code }).toEqual({ status: 404, code: 'not_found' });
  });

  it('refuses callers other than workers (403), and a worker reporting for the gateway’s lease (404)', async () => {
    const gatewayLease = (await leaseFor('gateway', 'refusing')).id;
    expect((await report('gateway', gatewayLease)).status).toBe(403);
    expect((await report('admin', gatewayLease)).status).toBe(403);
    expect((await report('worker', gatewayLease)).status).toBe(404);
  });

  it('refuses a released lease and a revoked one (409 lease_ended), and audits the refusals', async () => {
    const released = await leaseFor('worker', 'revocable');
    expect((await rest('worker', 'POST', `/v1/leases/${released.id}/release`)).status).toBe(200);
    const afterRelease = await report('worker', released.id);
    expect({ status: afterRelease.status, code: afterRelease.body.code }).toEqual({
      status: 409,
      code: 'lease_ended',
    });
    const revoked = await leaseFor('worker', 'revocable');
    expect(
      (
        await rest('admin', 'POST', `/v1/approvals/${approvals.revocable}/revoke`, {
          reason: 'no longer needed',
        })
      ).status,
    ).toBe(200);
    const afterRevoke = await report('worker', revoked.id);
    expect({ status: afterRevoke.status, body: afterRevoke.body }).toMatchObject({
      status: 409,
      body: { code: 'lease_ended', leaseState: 'revoked' },
    });
    expect((await failureRows(acme)).filter((row) => row.serverName === 'revocable')).toEqual([]);

    const audit = await rest(
      'admin',
      'GET',
      '/v1/audit-events?action=catalog.discovery_failure_refused&limit=50',
    );
    const items = audit.body.items as { targetId: string; outcome: string; data: Record<string, unknown> }[];
    expect(items.filter((e) => e.targetId === revoked.id)).toEqual([
      expect.objectContaining({
        outcome: 'denied',
        data: expect.objectContaining({
          code: 'lease_ended',
          serverName: 'revocable',
          failureClass: 'protocol',
          reason: 'protocol_version_refused',
        }),
      }),
    ]);
  });

  it('audits an accepted report with the token, lease, server, fingerprint and the two words', async () => {
    const audit = await rest('admin', 'GET', '/v1/audit-events?action=catalog.discovery_failed&limit=50');
    expect(audit.status).toBe(200);
    const items = audit.body.items as {
      outcome: string;
      targetType: string;
      data: Record<string, unknown>;
    }[];
    expect(items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          outcome: 'success',
          targetType: 'lease',
          data: expect.objectContaining({
            tokenKind: 'worker',
            pool: 'local',
            workspaceId,
            serverName: 'refusing',
            failureClass: 'protocol',
            reason: 'protocol_version_refused',
          }),
        }),
      ]),
    );
  });
});

describe('servers.status', () => {
  it('carries the newest discovery failure of the workspace alone, with its fingerprint, beside the probes', async () => {
    const status = await rest('admin', 'GET', `/v1/workspaces/${workspaceId}/servers/refusing/status`);
    expect(status.status).toBe(200);
    const lease = (await failureRows(acme)).find((row) => row.serverName === 'refusing');
    expect(status.body.discoveryFailures).toEqual([
      {
        principalUserId: null,
        definitionFingerprint: lease?.definitionFingerprint,
        failure: {
          failureClass: 'protocol',
          reason: 'protocol_version_refused',
          detail: 'the server refused every protocol version we speak',
          at: lease?.failedAt.toISOString(),
        },
      },
    ]);
    const healed = await rest('admin', 'GET', `/v1/workspaces/${workspaceId}/servers/healed/status`);
    expect(healed.body.discoveryFailures).toEqual([]);
  });
});

describe('tenancy of discovery failures', () => {
  it("never shows another tenant's failure: its catalog, its rows under row-level security", async () => {
    const globexLease = await leaseFor('globexWorker', 'refusing', globexWorkspaceId);
    expect(
      (await report('globexWorker', globexLease.id, { failureClass: 'config', reason: 'spawn_failed' }))
        .status,
    ).toBe(201);

    // Each tenant's catalog shows its own failure only.
    expect((await catalogServer('refusing'))?.discoveryFailure).toMatchObject({
      reason: 'protocol_version_refused',
    });
    expect(
      (await catalogServer('refusing', 'globexOwner', globexWorkspaceId))?.discoveryFailure,
    ).toMatchObject({
      reason: 'spawn_failed',
    });
    // Another tenant's workspace id answers 404, not its catalog nor the server's status.
    expect((await rest('globexOwner', 'GET', `/v1/workspaces/${workspaceId}/catalog`)).status).toBe(404);
    expect(
      (await rest('globexOwner', 'GET', `/v1/workspaces/${workspaceId}/servers/refusing/status`)).status,
    ).toBe(404);

    // Under the app role, each tenant's transaction sees only its own rows.
    const acmeRows = await failureRows(acme);
    const globexRows = await failureRows(globex);
    expect(new Set(acmeRows.map((row) => row.tenantId))).toEqual(new Set([acme.id]));
    expect(globexRows.map((row) => [row.tenantId, row.reason])).toEqual([[globex.id, 'spawn_failed']]);
  });
});
