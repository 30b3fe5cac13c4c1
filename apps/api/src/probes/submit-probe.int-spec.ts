import { randomUUID } from 'node:crypto';
import { createTestWorkspace, TEST_DATABASE_TIMEOUT_MS, type TestTenant } from '@gatehouse/testing';
import { Client } from 'pg';
import { callCommand, type CallResult } from '../commands/testing/command-clients';
import {
  createMember,
  createSurfacesHarness,
  createTestTenant,
  mintTestToken,
  type SurfacesHarness,
} from '../commands/testing/surfaces-harness';

// probes.submit re-decides the lease's standing the way catalog.submit does (one function for both,
// submitted-lease.ts): a lease whose approval was revoked past the API (no ledger event ended the row) is refused
// with 409 lease_ended, revoked here, and its report is not stored.

jest.setTimeout(60_000);

let h: SurfacesHarness;
let acme: TestTenant;
const tokens = { owner: '', approver: '', worker: '' };
let workspaceId: string;
let approvalId: string;

type Output = Record<string, unknown>;

function ok(result: CallResult): Output {
  if (!result.ok) throw new Error(`expected success, got ${result.status} ${JSON.stringify(result.body)}`);
  return result.output;
}

const run = (command: string, input: Output, token: string) =>
  callCommand('rest', h.app, command, input, token).then(ok);

const report = (leaseId: string) =>
  callCommand(
    'rest',
    h.app,
    'probes.submit',
    {
      leaseId,
      state: 'ready',
      failureClass: null,
      reason: null,
      protocolVersion: '2025-11-25',
      serverVersion: '1',
    },
    tokens.worker,
  );

beforeAll(async () => {
  h = await createSurfacesHarness();
  acme = await createTestTenant(h.db, { slug: `acme-${randomUUID().slice(0, 6)}` });
  const owner = await createMember(h.db, acme, 'owner');
  const approver = await createMember(h.db, acme, 'approver');
  tokens.owner = (await mintTestToken(h.db, acme, owner, { kind: 'user' })).secret;
  tokens.approver = (await mintTestToken(h.db, acme, approver, { kind: 'user' })).secret;
  tokens.worker = (
    await mintTestToken(h.db, acme, owner, {
      kind: 'worker',
      scopes: ['leases:write', 'snapshots:write'],
      pool: 'default',
    })
  ).secret;
  workspaceId = (await createTestWorkspace(h.db, acme.id)).id;
  await run('workspaces.setTrust', { workspaceId, trusted: true }, tokens.owner);
  await run(
    'definitions.sources.put',
    {
      tier: 'project',
      workspaceId,
      document: { mcpServers: { bypassed: { type: 'http', url: 'https://93.184.216.34/mcp' } } },
    },
    tokens.owner,
  );
  const request = await run('approvals.requests.open', { workspaceId, serverName: 'bypassed' }, tokens.owner);
  const identity = request.identity as { key: string; definitionFingerprint: string };
  const approval = await run(
    'approvals.requests.decide',
    {
      requestId: request.id,
      decision: 'approve',
      seenFingerprint: identity.definitionFingerprint,
      seenIdentityKey: identity.key,
    },
    tokens.approver,
  );
  approvalId = approval.id as string;
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await h?.close();
}, TEST_DATABASE_TIMEOUT_MS);

it('stores the report of a lease whose ground holds', async () => {
  const lease = await run('leases.issue', { workspaceId, serverName: 'bypassed' }, tokens.worker);
  expect(await report(lease.id as string)).toMatchObject({ ok: true, output: { state: 'ready' } });
  await run('leases.release', { leaseId: lease.id }, tokens.worker);
});

it('re-decides activation: an approval revoked past the API (no ledger event) refuses, ends the lease, stores nothing', async () => {
  const lease = await run('leases.issue', { workspaceId, serverName: 'bypassed' }, tokens.worker);
  const leaseId = lease.id as string;
  const probedBefore = await probedAt();
  const owner = new Client({ connectionString: h.testDb.adminUrl });
  await owner.connect();
  try {
    await owner.query('UPDATE approvals SET revoked_at = now(), revoked_by = decided_by WHERE id = $1', [
      approvalId,
    ]);
  } finally {
    await owner.end();
  }
  const refused = await report(leaseId);
  expect(refused).toMatchObject({
    ok: false,
    status: 409,
    code: 'lease_ended',
    body: { leaseState: 'revoked', reason: 'activation_revoked' },
  });
  const row = await h.db.withTenant(acme.id, (tx) => tx.lease.findUnique({ where: { id: leaseId } }));
  expect(row?.revokedReason).toBe('activation_revoked');
  // The report before the revocation is the one kept: the refused one replaced nothing.
  expect(await probedAt()).toEqual(probedBefore);
});

async function probedAt(): Promise<string[]> {
  const rows = await h.db.withTenant(acme.id, (tx) => tx.serverProbe.findMany({ where: { workspaceId } }));
  return rows.map((row) => `${row.leaseId} ${row.probedAt.toISOString()}`);
}
