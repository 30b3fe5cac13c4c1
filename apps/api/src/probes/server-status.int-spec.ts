import { randomUUID } from 'node:crypto';
import {
  createTestWorkspace,
  TEST_DATABASE_TIMEOUT_MS,
  type TestTenant,
  type TestUser,
} from '@gatehouse/testing';
import { callCommand, type CallResult } from '../commands/testing/command-clients';
import {
  createMember,
  createSurfacesHarness,
  createTestTenant,
  mintTestToken,
  type SurfacesHarness,
} from '../commands/testing/surfaces-harness';

// servers.status (decision 0099): the server page's connection state and lease holders. Real leases issued by a
// worker token and a real probe report through probes.submit; people read them back. Nothing of the admitted
// transport (the address, headers) comes back; owners see every principal's leases, a member the workspace
// alone's and their own; the holders page newest issued first with a cursor; another tenant reads a 404.

jest.setTimeout(60_000);

const ADDRESS = '93.184.216.34';

let h: SurfacesHarness;
let acme: TestTenant;
let owner: TestUser;
let member: TestUser;
const tokens = { owner: '', member: '', approver: '', worker: '', globexOwner: '' };
let workspaceId: string;
let workerTokenId: string;

type Output = Record<string, unknown>;

function ok(result: CallResult): Output {
  if (!result.ok) throw new Error(`expected success, got ${result.status} ${JSON.stringify(result.body)}`);
  return result.output;
}

const run = (command: string, input: Output, token: string) =>
  callCommand('rest', h.app, command, input, token).then(ok);

const status = (token: string, extra: Output = {}) =>
  run('servers.status', { workspaceId, serverName: 'leased', ...extra }, token);

interface Holder {
  leaseId: string;
  token: { id: string; kind: string; name: string | null };
  pool: string;
  principal: { userId: string; displayName: string | null } | null;
}
const holdersOf = (out: Output) => (out.leaseHolders as { items: Holder[] }).items;

beforeAll(async () => {
  h = await createSurfacesHarness();
  acme = await createTestTenant(h.db, { slug: `acme-${randomUUID().slice(0, 6)}` });
  const globex = await createTestTenant(h.db, { slug: `globex-${randomUUID().slice(0, 6)}` });
  owner = await createMember(h.db, acme, 'owner');
  member = await createMember(h.db, acme, 'member');
  const approver = await createMember(h.db, acme, 'approver');
  tokens.owner = (await mintTestToken(h.db, acme, owner, { kind: 'user' })).secret;
  tokens.member = (await mintTestToken(h.db, acme, member, { kind: 'user' })).secret;
  tokens.approver = (await mintTestToken(h.db, acme, approver, { kind: 'user' })).secret;
  tokens.globexOwner = (
    await mintTestToken(h.db, globex, await createMember(h.db, globex, 'owner'), { kind: 'user' })
  ).secret;
  const worker = await mintTestToken(h.db, acme, owner, {
    kind: 'worker',
    scopes: ['leases:write', 'snapshots:write'],
    pool: 'default',
  });
  tokens.worker = worker.secret;
  workerTokenId = worker.id;

  workspaceId = (await createTestWorkspace(h.db, acme.id)).id;
  await run('workspaces.setTrust', { workspaceId, trusted: true }, tokens.owner);
  await run(
    'definitions.sources.put',
    {
      tier: 'project',
      workspaceId,
      document: { mcpServers: { leased: { type: 'http', url: `https://${ADDRESS}/mcp` } } },
    },
    tokens.owner,
  );
  const request = await run('approvals.requests.open', { workspaceId, serverName: 'leased' }, tokens.owner);
  const identity = request.identity as { key: string; definitionFingerprint: string };
  await run(
    'approvals.requests.decide',
    {
      requestId: request.id,
      decision: 'approve',
      seenFingerprint: identity.definitionFingerprint,
      seenIdentityKey: identity.key,
    },
    tokens.approver,
  );
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await h?.close();
}, TEST_DATABASE_TIMEOUT_MS);

const lease = (principalUserId?: string) =>
  run(
    'leases.issue',
    { workspaceId, serverName: 'leased', ...(principalUserId ? { principalUserId } : {}) },
    tokens.worker,
  );

it('shows the failure class a worker reported and the holder of the live lease, never the transport', async () => {
  const before = await status(tokens.owner);
  expect(before).toMatchObject({ workspaceId, serverName: 'leased', probes: [] });

  const held = await lease();
  expect(JSON.stringify(held)).toContain(ADDRESS);
  await run(
    'probes.submit',
    {
      leaseId: held.id,
      state: 'failed',
      failureClass: 'auth',
      reason: 'unauthorized',
      protocolVersion: null,
      serverVersion: null,
    },
    tokens.worker,
  );

  const out = await status(tokens.member);
  expect(out.probes).toEqual([
    expect.objectContaining({
      principalUserId: null,
      state: 'failed',
      failureClass: 'auth',
      reason: 'unauthorized',
      definitionFingerprint: held.definitionFingerprint,
    }),
  ]);
  expect(holdersOf(out)).toEqual([
    {
      leaseId: held.id,
      token: { id: workerTokenId, kind: 'worker', name: 'test worker' },
      pool: 'default',
      principal: null,
      definitionFingerprint: held.definitionFingerprint,
      issuedAt: held.issuedAt,
      renewedAt: null,
      expiresAt: held.expiresAt,
    },
  ]);
  // The admitted transport (its checked address, headers, env) is the holder's alone.
  expect(JSON.stringify(out)).not.toContain(ADDRESS);
  expect(JSON.stringify(out)).not.toContain('transport');

  // A released lease holds nothing any more.
  await run('leases.release', { leaseId: held.id }, tokens.worker);
  expect(holdersOf(await status(tokens.owner)).map((h) => h.leaseId)).not.toContain(held.id);
});

it('shows owners every principal’s leases and a member only the workspace’s and their own', async () => {
  const forOwner = await lease(owner.id);
  const forMember = await lease(member.id);
  const forWorkspace = await lease();

  const seenByOwner = holdersOf(await status(tokens.owner)).map((h) => h.leaseId);
  expect(seenByOwner).toEqual(expect.arrayContaining([forOwner.id, forMember.id, forWorkspace.id]));

  const seenByMember = holdersOf(await status(tokens.member));
  expect(seenByMember.map((h) => h.leaseId)).toEqual(expect.arrayContaining([forMember.id, forWorkspace.id]));
  expect(seenByMember.map((h) => h.leaseId)).not.toContain(forOwner.id);
  expect(seenByMember.find((h) => h.leaseId === forMember.id)?.principal).toEqual({
    userId: member.id,
    // The fixture names a person by their email.
    displayName: member.email,
  });
});

it('pages the holders newest issued first and refuses a cursor it did not hand out', async () => {
  const older = await lease();
  // Between them, a lease the member may not see: the next page keeps the member's filter.
  await lease(owner.id);
  const newer = await lease();
  const first = await status(tokens.member, { limit: 1 });
  expect(holdersOf(first).map((h) => h.leaseId)).toEqual([newer.id]);
  const nextCursor = (first.leaseHolders as { nextCursor: string | null }).nextCursor;
  expect(nextCursor).toEqual(expect.any(String));
  const second = await status(tokens.member, { limit: 1, cursor: nextCursor });
  expect(holdersOf(second).map((h) => h.leaseId)).toEqual([older.id]);

  const bad = await callCommand(
    'rest',
    h.app,
    'servers.status',
    { workspaceId, serverName: 'leased', cursor: 'not-a-cursor' },
    tokens.owner,
  );
  expect(bad).toMatchObject({ ok: false, status: 400, code: 'bad_cursor' });
});

it('answers another tenant’s workspace with 404 and refuses a worker token', async () => {
  const foreign = await callCommand(
    'rest',
    h.app,
    'servers.status',
    { workspaceId, serverName: 'leased' },
    tokens.globexOwner,
  );
  expect(foreign).toMatchObject({ ok: false, status: 404, code: 'not_found' });
  const worker = await callCommand(
    'rest',
    h.app,
    'servers.status',
    { workspaceId, serverName: 'leased' },
    tokens.worker,
  );
  expect(worker).toMatchObject({ ok: false, status: 403 });
});
