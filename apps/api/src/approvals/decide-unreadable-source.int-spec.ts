import { randomBytes } from 'node:crypto';
import { TEST_DATABASE_TIMEOUT_MS, type TestTenant } from '@gatehouse/testing';
import { Client } from 'pg';
import {
  createMember,
  createSurfacesHarness,
  createTestTenant,
  mintTestToken,
  type SurfacesHarness,
} from '../commands/testing/surfaces-harness';

// Deciding a request whose definition source cannot be read now (its sealed document no longer opens, or its
// row is gone outside the API) is refused as what it is, 409 `source_unreadable`, never `changed_since_review`:
// the approver has nothing to read again, the source itself needs attention. The refusal is audited with its
// reason, and no approval is written. Real Postgres; the source is damaged with the database owner's SQL.

jest.setTimeout(120_000);

let harness: SurfacesHarness;
let tenant: TestTenant;
let admin = '';
let approver = '';

type Reply = { status: number; body: Record<string, unknown> };

async function rest(token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) {
  const response = await harness.app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${token}`,
      ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
  });
  return { status: response.statusCode, body: JSON.parse(response.body || 'null') } as Reply;
}

/** A trusted workspace whose project source lists one http server, and the open request to approve it. */
async function openRequestOnProjectSource(): Promise<{
  sourceId: string;
  request: { id: string; identity: { key: string; definitionFingerprint: string } };
}> {
  const workspace = await rest(admin, 'POST', '/v1/workspaces', {
    name: `ws-${randomBytes(3).toString('hex')}`,
  });
  expect(workspace.status).toBe(201);
  const workspaceId = workspace.body.id as string;
  expect((await rest(admin, 'PUT', `/v1/workspaces/${workspaceId}/trust`, { trusted: true })).status).toBe(
    200,
  );
  const source = await rest(admin, 'PUT', '/v1/definition-sources', {
    tier: 'project',
    workspaceId,
    document: { mcpServers: { docs: { type: 'http', url: 'https://mcp.example.test/mcp' } } },
  });
  expect(source.status).toBe(200);
  const request = await rest(approver, 'POST', `/v1/workspaces/${workspaceId}/approval-requests`, {
    serverName: 'docs',
  });
  expect(request.status).toBe(201);
  return {
    sourceId: source.body.id as string,
    request: request.body as { id: string; identity: { key: string; definitionFingerprint: string } },
  };
}

function approve(request: { id: string; identity: { key: string; definitionFingerprint: string } }) {
  return rest(approver, 'POST', `/v1/approval-requests/${request.id}/decision`, {
    decision: 'approve',
    seenFingerprint: request.identity.definitionFingerprint,
    seenIdentityKey: request.identity.key,
  });
}

async function asOwner<T>(run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: harness.testDb.adminUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

async function approvalsOf(requestId: string): Promise<number> {
  return asOwner(async (client) => {
    const rows = await client.query<{ n: string }>(
      'SELECT count(*) AS n FROM approvals WHERE request_id = $1',
      [requestId],
    );
    return Number(rows.rows[0]?.n);
  });
}

async function refusalReasonsOf(requestId: string): Promise<unknown[]> {
  const audit = await rest(
    admin,
    'GET',
    '/v1/audit-events?action=approvals.requests.decision_refused&limit=200',
  );
  expect(audit.status).toBe(200);
  return (audit.body.items as { targetId: string; data: { reason: unknown } }[])
    .filter((item) => item.targetId === requestId)
    .map((item) => item.data.reason);
}

beforeAll(async () => {
  harness = await createSurfacesHarness();
  tenant = await createTestTenant(harness.db);
  const adminUser = await createMember(harness.db, tenant, 'admin');
  const approverUser = await createMember(harness.db, tenant, 'approver');
  admin = (await mintTestToken(harness.db, tenant, adminUser, { kind: 'user' })).secret;
  approver = (await mintTestToken(harness.db, tenant, approverUser, { kind: 'user' })).secret;
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await harness?.close();
}, TEST_DATABASE_TIMEOUT_MS);

describe('deciding a request whose source cannot be read', () => {
  it('refuses a source whose sealed document no longer opens as 409 source_unreadable', async () => {
    const { sourceId, request } = await openRequestOnProjectSource();
    // One byte of the sealed document changed: authenticated decryption refuses it from now on.
    await asOwner((client) =>
      client.query(
        `UPDATE definition_sources
            SET document_ct = set_byte(document_ct, length(document_ct) - 1,
                                       (get_byte(document_ct, length(document_ct) - 1) + 1) % 256)
          WHERE id = $1`,
        [sourceId],
      ),
    );

    const refused = await approve(request);
    expect(refused).toMatchObject({
      status: 409,
      body: {
        code: 'source_unreadable',
        title: 'Source unreadable',
        source: 'unreadable',
        detail: expect.stringMatching(/cannot be read/),
      },
    });
    expect(await approvalsOf(request.id)).toBe(0);
    expect(await refusalReasonsOf(request.id)).toEqual(['source_unreadable']);
  });

  it('refuses a request whose source row is gone as 409 source_unreadable', async () => {
    const { sourceId, request } = await openRequestOnProjectSource();
    // Gone outside the API (a delete through it withdraws the request first).
    await asOwner((client) => client.query('DELETE FROM definition_sources WHERE id = $1', [sourceId]));

    const refused = await approve(request);
    expect(refused).toMatchObject({
      status: 409,
      body: {
        code: 'source_unreadable',
        source: 'missing',
        detail: expect.stringMatching(/no longer exists/),
      },
    });
    expect(await approvalsOf(request.id)).toBe(0);
    expect(await refusalReasonsOf(request.id)).toEqual(['source_unreadable']);
  });

  it('still answers changed_since_review when the source reads but the definition changed', async () => {
    const { request } = await openRequestOnProjectSource();
    const refused = await rest(approver, 'POST', `/v1/approval-requests/${request.id}/decision`, {
      decision: 'approve',
      seenFingerprint: 'v2:k1:not-what-is-there',
      seenIdentityKey: request.identity.key,
    });
    expect(refused).toMatchObject({ status: 409, body: { code: 'changed_since_review' } });
  });
});
