import type { ApprovalRequest } from '@gatehouse/db';
import { TEST_DATABASE_TIMEOUT_MS } from '@gatehouse/testing';
import { createSurfacesHarness, type SurfacesHarness } from '../commands/testing/surfaces-harness';
import {
  callAs,
  createApprovalWorld,
  requestsOf as requestsOfWorld,
  runAs,
  type ApprovalWorld,
  type Who,
} from './testing/approval-world';

// A personal variable must not put a second request for the same server and fingerprint in the
// queue, a request names the change that opened it, and a request whose identity no longer exists closes
// itself. Through the real command stack (REST over the real Fastify app, real Postgres).

jest.setTimeout(90_000);

let h: SurfacesHarness;

beforeAll(async () => {
  h = await createSurfacesHarness();
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await h?.close();
}, TEST_DATABASE_TIMEOUT_MS);

const run = (w: ApprovalWorld, who: Who, name: string, input: Record<string, unknown>) =>
  runAs(h, w, who, name, input);
const requestsOf = (w: ApprovalWorld) => requestsOfWorld(h, w);
const openRequestsOf = (w: ApprovalWorld): Promise<ApprovalRequest[]> =>
  requestsOf(w).then((rows) => rows.filter((row) => row.status === 'open'));

/** Reads the token from a variable: the value is a secret, so the fingerprint names its source, not its value. */
const GITHUB = {
  type: 'http',
  url: 'https://api.githubcopilot.com/mcp/',
  headers: { Authorization: 'Bearer ${GITHUB_TOKEN}' },
};
const REPO = { type: 'stdio', command: 'npx', args: ['-y', 'repo-mcp', '--dir', '${REPO_DIR}'] };

async function world(document: Record<string, unknown>): Promise<ApprovalWorld> {
  const w = await createApprovalWorld(h, { trusted: true });
  await run(w, 'owner', 'definitions.sources.put', {
    tier: 'project',
    workspaceId: w.workspaceId,
    document: { mcpServers: document },
  });
  return w;
}

function setVariable(w: ApprovalWorld, who: Who, scope: 'user' | 'workspace', name: string, value: string) {
  return run(w, who, 'definitions.variables.set', {
    scope,
    ...(scope === 'workspace' ? { workspaceId: w.workspaceId } : {}),
    name,
    value,
  });
}

async function principalActivation(w: ApprovalWorld, who: Who, server: string) {
  const view = await run(w, who, 'definitions.effective', { workspaceId: w.workspaceId, view: 'principal' });
  const entries = view.entries as { name: string; activation: Record<string, unknown> }[];
  return entries.find((entry) => entry.name === server)?.activation;
}

describe('a personal variable', () => {
  it('that resolves the server to what the workspace reviews opens no second request', async () => {
    const w = await world({ github: GITHUB });
    await setVariable(w, 'owner', 'workspace', 'GITHUB_TOKEN', 'ghp-workspace-token-value');
    const [shared, ...others] = await openRequestsOf(w);
    expect(others).toEqual([]);
    expect(shared).toMatchObject({ serverName: 'github', principalUserId: null });

    // Alice brings her own token: the same server, the same fingerprint, so the same review.
    await setVariable(w, 'alice', 'user', 'GITHUB_TOKEN', 'ghp-alices-own-token');
    expect(await openRequestsOf(w)).toEqual([shared]);
    expect(await principalActivation(w, 'alice', 'github')).toMatchObject({
      state: 'pending',
      openRequestId: shared?.id,
    });
  });

  it('that changes what runs opens her own request, naming the variable as the cause', async () => {
    const w = await world({ repo: REPO });
    await setVariable(w, 'owner', 'workspace', 'REPO_DIR', '/srv/shared');
    await setVariable(w, 'alice', 'user', 'REPO_DIR', '/home/alice/checkout');
    const open = await openRequestsOf(w);
    expect(open.map((row) => row.principalUserId).sort()).toEqual([null, w.users.alice.id].sort());
    const own = open.find((row) => row.principalUserId === w.users.alice.id);
    const read = await run(w, 'owner', 'approvals.requests.get', { requestId: own?.id });
    expect(read).toMatchObject({
      trigger: 'variable_changed',
      cause: { kind: 'variable_set', subject: 'REPO_DIR', scope: 'user' },
      closeReason: null,
      // No host policy: four-eyes is off, so the dashboard shows no four-eyes banner.
      fourEyes: false,
    });
  });

  it('unset again: her request closes itself (withdrawn, identity gone) and cannot be decided', async () => {
    const w = await world({ repo: REPO });
    await setVariable(w, 'alice', 'user', 'REPO_DIR', '/home/alice/checkout');
    const [own] = await openRequestsOf(w);
    expect(own).toMatchObject({ principalUserId: w.users.alice.id });

    await run(w, 'alice', 'definitions.variables.unset', { scope: 'user', name: 'REPO_DIR' });
    expect(await openRequestsOf(w)).toEqual([]);
    const read = await run(w, 'owner', 'approvals.requests.get', { requestId: own?.id });
    expect(read).toMatchObject({
      status: 'withdrawn',
      closeReason: 'identity_gone',
      closedBy: w.users.alice.id,
    });
    const decided = await callAs(h, w, 'owner', 'approvals.requests.decide', {
      requestId: own?.id,
      decision: 'approve',
      seenFingerprint: own?.definitionFingerprint,
      seenIdentityKey: own?.identityKey,
    });
    expect(decided).toMatchObject({ ok: false, status: 409, body: { code: 'request_not_open' } });
    const events = await h.db.withTenant(w.tenant.id, (tx) =>
      tx.auditEvent.findMany({ where: { action: 'approvals.requests.withdrawn' } }),
    );
    expect(events).toEqual([
      expect.objectContaining({
        targetId: own?.id,
        data: expect.objectContaining({ reason: 'identity_gone', trigger: 'variable_changed' }),
      }),
    ]);
  });

  it('unset where the workspace has the same value: her request gives way to the workspace one', async () => {
    const w = await world({ repo: REPO });
    await setVariable(w, 'alice', 'user', 'REPO_DIR', '/srv/shared');
    const [own] = await openRequestsOf(w);
    await setVariable(w, 'owner', 'workspace', 'REPO_DIR', '/srv/shared');
    // Her view now resolves exactly like the workspace's: her own request is for an identity that is gone.
    const open = await openRequestsOf(w);
    expect(open.map((row) => row.principalUserId)).toEqual([null]);
    expect((await requestsOf(w)).find((row) => row.id === own?.id)).toMatchObject({
      status: 'withdrawn',
      closeReason: 'identity_gone',
    });
  });

  it('disabling a server pauses it: its open request stays, and enabling it again opens no second one', async () => {
    const w = await world({ repo: REPO });
    await setVariable(w, 'owner', 'workspace', 'REPO_DIR', '/srv/shared');
    const before = await openRequestsOf(w);
    expect(before).toHaveLength(1);
    const overlay = { workspaceId: w.workspaceId, serverName: 'repo', scope: 'workspace' };
    await run(w, 'alice', 'definitions.overlays.set', { ...overlay, reason: 'paused' });
    expect(await openRequestsOf(w)).toEqual(before);
    await run(w, 'alice', 'definitions.overlays.clear', overlay);
    expect(await openRequestsOf(w)).toEqual(before);
  });
});
