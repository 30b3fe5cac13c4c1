import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
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

// catalog.submit through the real API (REST, real Postgres and Redis): a worker posts the catalog of the lease it
// holds. Refused without a live lease, for a lease another token holds, for another tenant's lease and for a
// document of another server; stored under the lease's server, fingerprint and principal, replaced in place.

jest.setTimeout(120_000);

const CANARY = `cnrysnap${randomBytes(9).toString('hex')}`;

let testDb: TestDatabase;
let db: Database;
let app: NestFastifyApplication;
let acme: TestTenant;
let globex: TestTenant;
let workspaceId: string;
const tokens = {
  admin: '',
  approver: '',
  agent: '',
  worker: '',
  worker2: '',
  globexWorker: '',
  gateway: '',
};
type Who = keyof typeof tokens;

async function rest(who: Who, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) {
  const response = await app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${tokens[who]}`,
      ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
  });
  return {
    status: response.statusCode,
    body: JSON.parse(response.body || 'null') as Record<string, unknown>,
  };
}

function catalogOf(server: string, tools: string[] = ['echo']) {
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
        tools: tools.map((name) => ({
          name: `mcp__${server}__${name}`,
          remoteName: name,
          description: `${name} tool`,
          inputSchema: { type: 'object', properties: {} },
          axes: { effect: 'write', egress: true },
          axesFrom: { effect: 'default', egress: 'default', irreversibility: 'absent' },
          contentOrigin: 'external',
          source: { tier: 'managed', origin: 'managed:catalog' },
        })),
        prompts: [],
        resources: [],
        resourceTemplates: [],
        diagnostics: [],
      },
    ],
    diagnostics: [],
  };
}

async function workerToken(tenant: TestTenant, creator: TestUser): Promise<string> {
  return mintWorkerTestToken(db, tenant, creator, {
    pool: 'local',
    name: 'worker',
    scopes: ['leases:write', 'snapshots:write'],
  });
}

const approvals = { revocable: '', bypassed: '' };

async function approve(serverName: string): Promise<string> {
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
    },
  );
  if (decided.status !== 201) throw new Error(`decision refused: ${JSON.stringify(decided.body)}`);
  return decided.body.id as string;
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 3 });
  acme = await createTestTenant(db, { slug: `acme-${randomUUID().slice(0, 8)}` });
  globex = await createTestTenant(db, { slug: `globex-${randomUUID().slice(0, 8)}` });
  const admin = await createMember(db, acme, 'admin');
  const approver = await createMember(db, acme, 'approver');
  const globexOwner = await createMember(db, globex, 'owner');
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
    logger: createLogger({ name: 'catalog-snapshot-test', level: 'error' }),
    egressResolver: createFixedResolver({ 'mcp.public.example': ['93.184.216.34'] }),
  });
  const source = await rest('admin', 'PUT', '/v1/definition-sources', {
    tier: 'managed',
    name: 'catalog',
    document: {
      mcpServers: {
        public: {
          type: 'http',
          url: 'https://mcp.public.example/mcp',
          headers: { Authorization: `Bearer ${CANARY}` },
        },
        other: { type: 'http', url: 'https://mcp.public.example/other' },
        revocable: { type: 'http', url: 'https://mcp.public.example/revocable' },
        bypassed: { type: 'http', url: 'https://mcp.public.example/bypassed' },
      },
    },
  });
  if (source.status !== 200) throw new Error(`source refused: ${JSON.stringify(source.body)}`);
  await approve('public');
  await approve('other');
  approvals.revocable = await approve('revocable');
  approvals.bypassed = await approve('bypassed');
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await app?.close();
  await db?.close();
  await testDb?.drop();
}, TEST_DATABASE_TIMEOUT_MS);

async function leaseFor(
  who: Who,
  serverName: string,
): Promise<{ id: string; definitionFingerprint: string }> {
  const issued = await rest(who, 'POST', '/v1/leases', { workspaceId, serverName });
  expect(issued.status).toBe(201);
  return issued.body as { id: string; definitionFingerprint: string };
}

const submit = (who: Who, leaseId: string, document: unknown) =>
  rest(who, 'POST', `/v1/leases/${leaseId}/snapshot`, { document });

const snapshotRows = () =>
  db.withTenant(acme.id, (tx) => tx.catalogSnapshot.findMany({ where: { workspaceId } }));

describe('catalog.submit', () => {
  it('stores the catalog under the lease it was posted for, and replaces it in place', async () => {
    const lease = await leaseFor('worker', 'public');
    const first = await submit('worker', lease.id, catalogOf('public', ['echo']));
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      leaseId: lease.id,
      workspaceId,
      serverName: 'public',
      definitionFingerprint: lease.definitionFingerprint,
      principalUserId: null,
      protocolVersion: '2025-06-18',
      serverVersion: '1.2.3',
      complete: true,
      stale: false,
    });
    const again = await submit('worker', lease.id, catalogOf('public', ['echo', 'add']));
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    const rows = await snapshotRows();
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows[0]?.document);
    expect(stored).toContain('mcp__public__add');
    // The document carries no secret: the header value the lease materialized is nowhere in it.
    expect(stored).not.toContain(CANARY);
  });

  it('refuses a lease it does not hold: none, another token, another tenant (404)', async () => {
    const lease = await leaseFor('worker', 'public');
    expect((await submit('worker', randomUUID(), catalogOf('public'))).body.code).toBe('not_found');
    const other = await submit('worker2', lease.id, catalogOf('public'));
    expect({ status: other.status, code: other.body.code }).toEqual({ status: 404, code: 'not_found' });
    const foreign = await submit('globexWorker', lease.id, catalogOf('public'));
    expect({ status: foreign.status, code: foreign.body.code }).toEqual({ status: 404, code: 'not_found' });
  });

  it("refuses a document of another server than the lease's, or of several (409 snapshot_mismatch)", async () => {
    const lease = await leaseFor('worker', 'public');
    const other = await submit('worker', lease.id, catalogOf('other'));
    expect({ status: other.status, code: other.body.code }).toEqual({
      status: 409,
      code: 'snapshot_mismatch',
    });
    const both = catalogOf('public');
    both.servers.push(...catalogOf('other').servers);
    expect((await submit('worker', lease.id, both)).body.code).toBe('snapshot_mismatch');
    expect((await snapshotRows()).filter((row) => row.serverName === 'other')).toHaveLength(0);
  });

  it('refuses once the lease was released (409 lease_ended)', async () => {
    const lease = await leaseFor('worker', 'other');
    expect((await rest('worker', 'POST', `/v1/leases/${lease.id}/release`)).status).toBe(200);
    const refused = await submit('worker', lease.id, catalogOf('other'));
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 409, code: 'lease_ended' });
  });

  it("refuses a gateway token (workers post snapshots), and a worker posting for the gateway's lease", async () => {
    const issued = await rest('gateway', 'POST', '/v1/leases', { workspaceId, serverName: 'public' });
    expect(issued.status).toBe(201);
    const gatewayLease = issued.body.id as string;
    expect((await submit('gateway', gatewayLease, catalogOf('public'))).status).toBe(403);
    const worker = await submit('worker', gatewayLease, catalogOf('public'));
    expect({ status: worker.status, code: worker.body.code }).toEqual({ status: 404, code: 'not_found' });
    expect((await snapshotRows()).filter((row) => row.leaseId === gatewayLease)).toEqual([]);
  });

  it('refuses a document outside the contract (strict) and callers other than workers', async () => {
    const lease = await leaseFor('worker', 'public');
    const loose = { ...catalogOf('public'), extra: true };
    expect((await submit('worker', lease.id, loose)).status).toBe(400);
    const agent = await submit('agent', lease.id, catalogOf('public'));
    expect(agent.status).toBe(403);
    const user = await submit('admin', lease.id, catalogOf('public'));
    expect(user.status).toBe(403);
  });
});

describe('catalog.submit on a lease whose ground changed', () => {
  it('refuses a lease whose approval was revoked: the revocation ended the lease row (409 lease_ended)', async () => {
    const lease = await leaseFor('worker', 'revocable');
    const revoked = await rest('admin', 'POST', `/v1/approvals/${approvals.revocable}/revoke`, {
      reason: 'no longer needed',
    });
    expect(revoked.status).toBe(200);
    const refused = await submit('worker', lease.id, catalogOf('revocable'));
    expect({ status: refused.status, body: refused.body }).toMatchObject({
      status: 409,
      body: { code: 'lease_ended', leaseState: 'revoked', reason: 'approval_revoked' },
    });
    expect((await snapshotRows()).filter((row) => row.serverName === 'revocable')).toEqual([]);
  });

  it('re-decides activation: an approval revoked past the API (no ledger event) still refuses, and ends the lease', async () => {
    const lease = await leaseFor('worker', 'bypassed');
    const owner = new Client({ connectionString: testDb.adminUrl });
    await owner.connect();
    try {
      await owner.query('UPDATE approvals SET revoked_at = now(), revoked_by = decided_by WHERE id = $1', [
        approvals.bypassed,
      ]);
    } finally {
      await owner.end();
    }
    const refused = await submit('worker', lease.id, catalogOf('bypassed'));
    expect({ status: refused.status, body: refused.body }).toMatchObject({
      status: 409,
      body: { code: 'lease_ended', leaseState: 'revoked', reason: 'activation_revoked' },
    });
    const row = await db.withTenant(acme.id, (tx) => tx.lease.findUnique({ where: { id: lease.id } }));
    expect(row?.revokedReason).toBe('activation_revoked');
    expect((await snapshotRows()).filter((row) => row.serverName === 'bypassed')).toEqual([]);
  });
});

describe('the audit of catalog.submit', () => {
  type AuditItem = {
    actorId: string | null;
    tokenKind: string | null;
    targetType: string;
    targetId: string | null;
    outcome: string;
    data: Record<string, unknown>;
  };

  async function audited(action: string): Promise<AuditItem[]> {
    const page = await rest('admin', 'GET', `/v1/audit-events?action=${action}&limit=200`);
    expect(page.status).toBe(200);
    return page.body.items as AuditItem[];
  }

  it('records accepted and refused submissions with token, lease, server and fingerprint, never the document', async () => {
    const marker = `zzmarker${randomBytes(4).toString('hex')}`;
    const lease = await leaseFor('worker', 'public');
    expect((await submit('worker', lease.id, catalogOf('public', [marker]))).status).toBe(201);
    expect((await submit('worker', lease.id, catalogOf('other', [marker]))).status).toBe(409);
    expect((await submit('worker2', lease.id, catalogOf('public', [marker]))).status).toBe(404);

    const accepted = (await audited('catalog.submitted')).filter((e) => e.targetId === lease.id);
    expect(accepted).toEqual([
      expect.objectContaining({
        tokenKind: 'worker',
        targetType: 'lease',
        outcome: 'success',
        data: expect.objectContaining({
          tokenKind: 'worker',
          pool: 'local',
          workspaceId,
          serverName: 'public',
          principalUserId: null,
          definitionFingerprint: lease.definitionFingerprint,
          complete: true,
          tools: 1,
        }),
      }),
    ]);
    const tokenId = accepted[0]?.data.tokenId;
    expect(accepted[0]?.actorId).toBe(tokenId);

    const refused = (await audited('catalog.submit_refused')).filter((e) => e.targetId === lease.id);
    expect(refused.map((e) => ({ outcome: e.outcome, ...e.data }))).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          outcome: 'denied',
          code: 'snapshot_mismatch',
          tokenId,
          serverName: 'public',
          definitionFingerprint: lease.definitionFingerprint,
        }),
        // Another token's attempt names that token and the lease it asked for, and nothing of the lease.
        expect.objectContaining({ outcome: 'denied', code: 'not_found', tokenKind: 'worker' }),
      ]),
    );
    const foreign = refused.find((e) => e.data.code === 'not_found');
    expect(foreign?.data.tokenId).not.toBe(tokenId);
    expect(foreign?.data.serverName).toBeUndefined();

    const everything = JSON.stringify([...accepted, ...refused]);
    expect(everything).not.toContain(marker);
    expect(everything).not.toContain(CANARY);
  });

  it('records a refusal because the lease ended, with its state', async () => {
    const lease = await leaseFor('worker', 'other');
    expect((await rest('worker', 'POST', `/v1/leases/${lease.id}/release`)).status).toBe(200);
    expect((await submit('worker', lease.id, catalogOf('other'))).status).toBe(409);
    const refused = (await audited('catalog.submit_refused')).filter((e) => e.targetId === lease.id);
    expect(refused.map((e) => e.data)).toEqual([
      expect.objectContaining({ code: 'lease_ended', reason: 'released', serverName: 'other' }),
    ]);
  });
});
