import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { RevocationKind } from '@gatehouse/contracts';
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
import { mintApiToken } from '../auth/mint-api-token';
import { runCli } from '../cli/run-cli';
import { createMember, mintTestToken } from '../commands/testing/surfaces-harness';
import { apiConfigSchema } from '../config/api.config';
import { createApiApp } from '../create-api-app';

// Leases end with what they stand on (docs/architecture/leases-and-revocation.md), use case by use case:
// every change a lease depends on, made through the real API (or the operator CLI), writes its ledger event
// and ends the live lease it concerns in the change's own transaction. lease-revocation.int-spec proves the
// primitive (appendLeaseChange: subject shapes, rollback); this file proves each producer calls it. "The same
// transaction" is read from Postgres itself: the ended lease row and the change's audit row (append-only)
// carry the same xmin, the id of the transaction that wrote them.

jest.setTimeout(120_000);

const DNS = { 'mcp.public.example': ['93.184.216.34'] };
const SERVERS = ['shared', 'revoked', 'overlaid', 'edited'] as const;

function document(editedPath = 'edited') {
  return {
    mcpServers: Object.fromEntries(
      SERVERS.map((name) => [
        name,
        {
          type: 'http',
          url: `https://mcp.public.example/${name === 'edited' ? editedPath : name}`,
          principalHeader: 'X-Gatehouse-Principal',
        },
      ]),
    ),
  };
}

const HOST_POLICY = {
  stdioCommands: [],
  headerHelpers: [],
  privateCidrs: [],
  traceContextOrigins: [],
  fourEyes: false,
};

let testDb: TestDatabase;
let db: Database;
let app: NestFastifyApplication;
let acme: TestTenant;
let workspaceId: string;
let sourceId: string;
let member: TestUser;
let roled: TestUser;
const tokens = { admin: '', approver: '', worker: '', doomedWorker: '', cliWorker: '', gateway: '' };
const tokenIds = { doomedWorker: '', cliWorker: '' };
const approvals: Record<string, string> = {};
type Who = keyof typeof tokens;

async function rest(
  who: Who,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
) {
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

async function workerToken(name: string): Promise<{ secret: string; id: string }> {
  return db.withTenant(acme.id, async (tx) => {
    const minted = await mintApiToken(tx, {
      tenantId: acme.id,
      createdById: member.id,
      name,
      grant: { kind: 'worker', userId: null, scopes: ['leases:write'], workspaceIds: [], pool: 'edge' },
      expiresAt: null,
    });
    return { secret: minted.secret, id: minted.token.id };
  });
}

/** A live lease of `serverName`, for the workspace or (through the gateway) for a member. */
async function liveLease(who: Who, serverName: string, principalUserId?: string): Promise<string> {
  const issued = await rest(who, 'POST', '/v1/leases', {
    workspaceId,
    serverName,
    ...(principalUserId === undefined ? {} : { principalUserId }),
  });
  if (issued.status !== 201) throw new Error(`lease refused: ${JSON.stringify(issued.body)}`);
  return issued.body.id as string;
}

async function asSuperuser<T extends Record<string, unknown>>(sql: string, params: unknown[]): Promise<T[]> {
  const admin = new Client({ connectionString: testDb.adminUrl });
  await admin.connect();
  try {
    return (await admin.query<T>(sql, params)).rows;
  } finally {
    await admin.end();
  }
}

/**
 * How the lease ended and what else its transaction wrote: the audit actions and the ledger event kinds with
 * the lease's xmin. Ledger rows are sequenced and marked published after commit (a new xmin), so the event is
 * matched by its kind and subject among the rows appended since `sinceId` instead.
 */
async function endOf(leaseId: string, sinceEventId: string) {
  const [lease] = await asSuperuser<{ revoked_reason: string | null; xmin: string }>(
    'SELECT revoked_reason, xmin::text AS xmin FROM leases WHERE id = $1',
    [leaseId],
  );
  const actions = await asSuperuser<{ action: string }>(
    'SELECT action FROM audit_events WHERE xmin::text = $1 AND tenant_id = $2 ORDER BY seq',
    [lease?.xmin, acme.id],
  );
  const events = await asSuperuser<{ kind: string; subject: Record<string, unknown> }>(
    'SELECT kind, subject FROM revocation_events WHERE id > $1::bigint ORDER BY id',
    [sinceEventId],
  );
  return { reason: lease?.revoked_reason ?? null, actions: actions.map((row) => row.action), events };
}

async function ledgerHead(): Promise<string> {
  const [row] = await asSuperuser<{ head: string }>(
    'SELECT coalesce(max(id), 0)::text AS head FROM revocation_events',
    [],
  );
  return row?.head ?? '0';
}

/** Leases, makes the change, and expects the lease ended by `kind` in the transaction that audited `action`. */
async function expectChangeEnds(
  lease: () => Promise<string>,
  change: () => Promise<void>,
  expected: { kind: RevocationKind; action: string; subject: Record<string, unknown> },
): Promise<void> {
  const leaseId = await lease();
  const since = await ledgerHead();
  await change();
  const ended = await endOf(leaseId, since);
  expect(ended.reason).toBe(expected.kind);
  expect(ended.actions).toContain(expected.action);
  expect(ended.events).toContainEqual({ kind: expected.kind, subject: expected.subject });
}

/** The change succeeded (any 2xx), or the test stops with the problem it answered. */
async function ok(response: Promise<{ status: number; body: unknown }>): Promise<void> {
  const settled = await response;
  if (settled.status < 200 || settled.status > 299)
    throw new Error(`${settled.status}: ${JSON.stringify(settled.body)}`);
}

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
  const admin = await createMember(db, acme, 'admin');
  const approver = await createMember(db, acme, 'approver');
  member = await createMember(db, acme, 'member');
  roled = await createMember(db, acme, 'member');
  workspaceId = (await createTestWorkspace(db, acme.id)).id;
  tokens.admin = (await mintTestToken(db, acme, admin, { kind: 'user' })).secret;
  tokens.approver = (await mintTestToken(db, acme, approver, { kind: 'user' })).secret;
  tokens.worker = (await workerToken('worker')).secret;
  const doomed = await workerToken('doomed');
  const cli = await workerToken('cli');
  tokens.doomedWorker = doomed.secret;
  tokenIds.doomedWorker = doomed.id;
  tokens.cliWorker = cli.secret;
  tokenIds.cliWorker = cli.id;
  const gateway = mintTokenSecret('gateway');
  await insertGatewayToken({
    ownerUrl: testDb.ownerUrl,
    name: 'gateway',
    scopes: ['leases:write'],
    pool: 'edge',
    secretHash: gateway.secretHash,
    prefix: gateway.prefix,
    expiresAt: null,
  });
  tokens.gateway = gateway.secret;
  const parsed = parseConfig(apiConfigSchema, {
    NODE_ENV: 'test',
    DATABASE_URL: testDb.appUrl,
    REDIS_URL: testRedisUrl(),
    GATEHOUSE_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    GATEHOUSE_ACTIVE_KEY_ID: 'k1',
    WORKER_POOLS: JSON.stringify({ edge: { tenants: '*' } }),
  });
  if (!parsed.ok) throw new Error(parsed.message);
  app = await createApiApp(parsed.config, {
    logger: createLogger({ name: 'lease-change-producers-test', level: 'silent' }),
    egressResolver: createFixedResolver(DNS),
  });
  await ok(rest('admin', 'PUT', '/v1/host-policy', HOST_POLICY));
  const source = await rest('admin', 'PUT', '/v1/definition-sources', {
    tier: 'managed',
    name: 'leases',
    document: document(),
  });
  if (source.status !== 200) throw new Error(`source refused: ${JSON.stringify(source.body)}`);
  sourceId = source.body.id as string;
  for (const serverName of SERVERS) approvals[serverName] = await approve(serverName);
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await app?.close();
  await db?.close();
  await testDb?.drop();
}, TEST_DATABASE_TIMEOUT_MS);

describe('each change a lease depends on ends it, with its ledger event, in its own transaction', () => {
  it('approval revoked (approvals.revoke)', async () => {
    const approvalId = approvals.revoked as string;
    await expectChangeEnds(
      () => liveLease('worker', 'revoked'),
      () => ok(rest('admin', 'POST', `/v1/approvals/${approvalId}/revoke`, { reason: 'no longer used' })),
      {
        kind: 'approval_revoked',
        action: 'approvals.revoked',
        subject: { approvalId, workspaceId, serverName: 'revoked' },
      },
    );
  });

  it('a definition source written (definitions.sources.put), which leaves an approval stale', async () => {
    await expectChangeEnds(
      () => liveLease('worker', 'edited'),
      () =>
        ok(
          rest('admin', 'PUT', '/v1/definition-sources', {
            tier: 'managed',
            name: 'leases',
            expectedVersion: 1,
            document: document('edited-elsewhere'),
          }),
        ),
      {
        kind: 'definition_changed',
        action: 'definitions.sources.put',
        subject: { definitionSourceId: sourceId },
      },
    );
    // A stale approval is no event of its own: the write that made it stale ended the lease, and no new one is
    // issued on it.
    expect(
      (await rest('worker', 'POST', '/v1/leases', { workspaceId, serverName: 'edited' })).body,
    ).toMatchObject({
      code: 'not_approved',
      activationState: 'stale',
    });
  });

  it('a variable set and unset (definitions.variables.set / unset)', async () => {
    await expectChangeEnds(
      () => liveLease('worker', 'shared'),
      () => ok(rest('admin', 'PUT', '/v1/definition-variables/SPARE', { scope: 'tenant', value: 'one' })),
      { kind: 'variable_changed', action: 'definitions.variables.set', subject: {} },
    );
    await expectChangeEnds(
      () => liveLease('worker', 'shared'),
      () => ok(rest('admin', 'DELETE', '/v1/definition-variables/SPARE?scope=tenant')),
      { kind: 'variable_changed', action: 'definitions.variables.unset', subject: {} },
    );
  });

  it('an overlay set and cleared (definitions.overlays.set / clear)', async () => {
    const path = `/v1/workspaces/${workspaceId}/disabled-servers/overlaid`;
    const subject = { workspaceId, serverName: 'overlaid' };
    await expectChangeEnds(
      () => liveLease('worker', 'overlaid'),
      () => ok(rest('admin', 'PUT', path, { scope: 'workspace', reason: 'maintenance' })),
      { kind: 'overlay_changed', action: 'definitions.overlays.set', subject },
    );
    // While disabled nothing is leased, so the clear ends no lease; its event is still written, beside its audit.
    expect(
      (await rest('worker', 'POST', '/v1/leases', { workspaceId, serverName: 'overlaid' })).status,
    ).not.toBe(201);
    const since = await ledgerHead();
    await ok(rest('admin', 'DELETE', `${path}?scope=workspace`));
    expect((await endOf(await liveLease('worker', 'overlaid'), since)).events).toEqual([
      { kind: 'overlay_changed', subject },
    ]);
  });

  it('workspace trust changed (workspaces.setTrust)', async () => {
    await expectChangeEnds(
      () => liveLease('worker', 'shared'),
      () => ok(rest('admin', 'PUT', `/v1/workspaces/${workspaceId}/trust`, { trusted: true })),
      { kind: 'workspace_trust_changed', action: 'workspaces.setTrust', subject: { workspaceId } },
    );
    await ok(rest('admin', 'PUT', `/v1/workspaces/${workspaceId}/trust`, { trusted: false }));
  });

  it('a member re-roled and removed (members.changeRole / remove): the leases for that principal', async () => {
    await expectChangeEnds(
      () => liveLease('gateway', 'shared', roled.id),
      () => ok(rest('admin', 'PATCH', `/v1/members/${roled.id}`, { role: 'approver' })),
      { kind: 'member_changed', action: 'members.changeRole', subject: { userId: roled.id } },
    );
    await expectChangeEnds(
      () => liveLease('gateway', 'shared', roled.id),
      () => ok(rest('admin', 'DELETE', `/v1/members/${roled.id}`)),
      { kind: 'member_changed', action: 'members.remove', subject: { userId: roled.id } },
    );
  });

  it('the holding token revoked through the API (tokens.revoke)', async () => {
    await expectChangeEnds(
      () => liveLease('doomedWorker', 'shared'),
      () => ok(rest('admin', 'DELETE', `/v1/tokens/${tokenIds.doomedWorker}`)),
      { kind: 'token_revoked', action: 'tokens.revoke', subject: { tokenIds: [tokenIds.doomedWorker] } },
    );
  });

  it('the holding token revoked by the operator CLI (gatehouse admin revoke-token --tenant)', async () => {
    const err: string[] = [];
    await expectChangeEnds(
      () => liveLease('cliWorker', 'shared'),
      async () => {
        const code = await runCli(
          ['admin', 'revoke-token', '--id', tokenIds.cliWorker, '--tenant', acme.slug],
          {
            out: () => undefined,
            err: (line) => err.push(line),
            env: { DATABASE_URL: testDb.appUrl },
            readStdin: async () => '',
          },
        );
        if (code !== 0) throw new Error(err.join('\n'));
      },
      { kind: 'token_revoked', action: 'tokens.revoke', subject: { tokenIds: [tokenIds.cliWorker] } },
    );
  });

  it('the HostPolicy changed (hostPolicy.put)', async () => {
    await expectChangeEnds(
      () => liveLease('worker', 'shared'),
      () =>
        ok(
          rest('admin', 'PUT', '/v1/host-policy', {
            ...HOST_POLICY,
            traceContextOrigins: ['https://mcp.public.example'],
          }),
        ),
      { kind: 'host_policy_changed', action: 'hostPolicy.put', subject: {} },
    );
  });

  it('the workspace generation bumped (workspaces.bumpGeneration)', async () => {
    await expectChangeEnds(
      () => liveLease('worker', 'shared'),
      () => ok(rest('admin', 'POST', `/v1/workspaces/${workspaceId}/generation`, {})),
      { kind: 'workspace_generation_changed', action: 'workspaces.bumpGeneration', subject: { workspaceId } },
    );
  });

  it('a definition source deleted (definitions.sources.delete)', async () => {
    await expectChangeEnds(
      () => liveLease('worker', 'shared'),
      () => ok(rest('admin', 'DELETE', `/v1/definition-sources/${sourceId}`)),
      {
        kind: 'definition_changed',
        action: 'definitions.sources.delete',
        subject: { definitionSourceId: sourceId },
      },
    );
  });
});
