import { randomUUID } from 'node:crypto';
import type { ApprovalRequest } from '@gatehouse/db';
import { createTestWorkspace, TEST_DATABASE_TIMEOUT_MS } from '@gatehouse/testing';
import { callCommand } from '../commands/testing/command-clients';
import { createSurfacesHarness, type SurfacesHarness } from '../commands/testing/surfaces-harness';
import {
  createApprovalWorld,
  requestsOf as requestsOfWorld,
  runAs,
  type ApprovalWorld,
  type Who,
} from './testing/approval-world';

// Approval requests are opened by EVENTS, in the event's own transaction, through the real command stack (REST
// over the real Fastify app, real Postgres): a source written or deleted, a variable set, an overlay cleared, a
// generation bumped, trust changed. Reads never open one, and nothing here ever creates an APPROVAL: a document's
// writer can ask for review, never grant it. Each test has its own tenant, so counts are its own.

jest.setTimeout(90_000);

let h: SurfacesHarness;

beforeAll(async () => {
  h = await createSurfacesHarness();
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await h?.close();
}, TEST_DATABASE_TIMEOUT_MS);

type World = ApprovalWorld;

const world = (options: { trusted: boolean }) => createApprovalWorld(h, options);
const run = (w: World, who: Who, name: string, input: Record<string, unknown>) =>
  runAs(h, w, who, name, input);
const requestsOf = (w: World) => requestsOfWorld(h, w);

function openRequestsOf(w: World): Promise<ApprovalRequest[]> {
  return requestsOf(w).then((rows) => rows.filter((row) => row.status === 'open'));
}

function approvalCount(w: World): Promise<number> {
  return h.db.withTenant(w.tenant.id, (tx) => tx.approval.count());
}

function openedEvents(w: World) {
  return h.db.withTenant(w.tenant.id, (tx) =>
    tx.auditEvent.findMany({ where: { action: 'approvals.requests.opened' }, orderBy: { seq: 'asc' } }),
  );
}

function byServer(rows: readonly ApprovalRequest[]): Map<string, ApprovalRequest> {
  const map = new Map<string, ApprovalRequest>();
  for (const row of rows) {
    if (map.has(row.serverName)) throw new Error(`two requests for ${row.serverName}`);
    map.set(row.serverName, row);
  }
  return map;
}

const GITHUB = { type: 'http', url: 'https://api.githubcopilot.com/mcp/' };
const FILESYSTEM = {
  type: 'stdio',
  command: 'npx',
  args: ['-y', '@modelcontextprotocol/server-filesystem', '/srv/repo'],
};

function putProject(w: World, who: Who, document: unknown, expectedVersion?: number) {
  return run(w, who, 'definitions.sources.put', {
    tier: 'project',
    workspaceId: w.workspaceId,
    document,
    ...(expectedVersion === undefined ? {} : { expectedVersion }),
  });
}

describe('writing a project source', () => {
  it('opens one request per server, once per identity, and supersedes it when the server changes', async () => {
    const w = await world({ trusted: true });
    await putProject(w, 'owner', { mcpServers: { github: GITHUB, filesystem: FILESYSTEM } });

    const first = await requestsOf(w);
    expect(first).toHaveLength(2);
    const opened = byServer(first);
    for (const name of ['github', 'filesystem']) {
      expect(opened.get(name)).toMatchObject({
        status: 'open',
        trigger: 'source_written',
        authorUserIds: [w.users.owner.id],
        sourceTier: 'project',
        sourceOrigin: `project:${w.workspaceId}`,
        principalUserId: null,
        workspaceGeneration: 1,
        previousApprovalId: null,
        changes: [],
      });
    }
    // Audited in the same transaction, before the write's own event.
    const events = await h.db.withTenant(w.tenant.id, (tx) =>
      tx.auditEvent.findMany({ orderBy: { seq: 'asc' } }),
    );
    expect(events.map((event) => event.action)).toEqual([
      'approvals.requests.opened',
      'approvals.requests.opened',
      'definitions.sources.put',
    ]);
    expect(
      events
        .slice(0, 2)
        .map((event) => event.targetId)
        .sort(),
    ).toEqual(first.map((row) => row.id).sort());
    expect(events[0]?.data).toMatchObject({ trigger: 'source_written', workspaceId: w.workspaceId });

    // The same document again: no second request for an identity that already has an open one.
    await putProject(w, 'owner', { mcpServers: { github: GITHUB, filesystem: FILESYSTEM } }, 1);
    expect(await requestsOf(w)).toEqual(first);
    expect(await openedEvents(w)).toHaveLength(2);

    // Alice (a maintainer) changes filesystem's args: its old request is superseded, the new one carries both
    // authors, so four-eyes still covers the owner's part of what is under review.
    const changed = { ...FILESYSTEM, args: [...FILESYSTEM.args, '--read-only'] };
    // (The same document again wrote nothing, decision 0085: the source is still at version 1.)
    await putProject(w, 'alice', { mcpServers: { github: GITHUB, filesystem: changed } }, 1);
    const after = await requestsOf(w);
    expect(after).toHaveLength(3);
    const old = after.find((row) => row.id === opened.get('filesystem')?.id);
    expect(old).toMatchObject({ status: 'superseded', openKey: null, closedBy: w.users.alice.id });
    expect(old?.closedAt).toBeInstanceOf(Date);
    const open = byServer(after.filter((row) => row.status === 'open'));
    expect(open.get('github')?.id).toBe(opened.get('github')?.id);
    const replacement = open.get('filesystem');
    expect(replacement).toMatchObject({ status: 'open', trigger: 'source_written' });
    expect(replacement?.id).not.toBe(old?.id);
    expect(replacement?.identityKey).not.toBe(old?.identityKey);
    expect([...(replacement?.authorUserIds ?? [])].sort()).toEqual(
      [w.users.owner.id, w.users.alice.id].sort(),
    );
    expect(JSON.stringify(replacement?.projection)).toContain('--read-only');
    const lastOpened = (await openedEvents(w)).at(-1);
    expect(lastOpened).toMatchObject({ targetId: replacement?.id, data: { superseded: [old?.id] } });

    expect(await approvalCount(w)).toBe(0);
  });

  it('an unrelated edit leaves open requests and their authors alone (its author authored none of them)', async () => {
    const w = await world({ trusted: true });
    await putProject(w, 'alice', { mcpServers: { github: GITHUB } });
    const before = await requestsOf(w);
    expect(before.map((row) => row.authorUserIds)).toEqual([[w.users.alice.id]]);

    await run(w, 'admin', 'definitions.variables.set', { scope: 'tenant', name: 'UNRELATED', value: 'x' });
    await run(w, 'admin', 'definitions.sources.put', {
      tier: 'managed',
      name: 'elsewhere',
      document: { mcpServers: { other: FILESYSTEM } },
    });
    const after = byServer(await requestsOf(w));
    expect(after.get('github')).toEqual(before[0]);
    // The admin's own change opened its own request, authored by the admin alone.
    expect(after.get('other')?.authorUserIds).toEqual([w.users.admin.id]);
  });

  it('opens nothing in an untrusted workspace; trusting it opens the requests (trust_changed)', async () => {
    const w = await world({ trusted: false });
    await putProject(w, 'alice', { mcpServers: { github: GITHUB, filesystem: FILESYSTEM } });
    expect(await requestsOf(w)).toEqual([]);
    expect(await openedEvents(w)).toEqual([]);

    await run(w, 'owner', 'workspaces.setTrust', { workspaceId: w.workspaceId, trusted: true });
    const opened = await requestsOf(w);
    expect(opened.map((row) => [row.serverName, row.status, row.trigger]).sort()).toEqual([
      ['filesystem', 'open', 'trust_changed'],
      ['github', 'open', 'trust_changed'],
    ]);
    for (const row of opened) expect(row.authorUserIds).toContain(w.users.owner.id);

    // Confirming the trust it already has is no event: nothing opens and no one becomes an author.
    await run(w, 'admin', 'workspaces.setTrust', { workspaceId: w.workspaceId, trusted: true });
    expect(await requestsOf(w)).toEqual(opened);
    // Distrusting it opens nothing either (every project entry is untrusted, not awaiting review).
    await run(w, 'owner', 'workspaces.setTrust', { workspaceId: w.workspaceId, trusted: false });
    expect(await requestsOf(w)).toEqual(opened);
    expect(await approvalCount(w)).toBe(0);
  });
});

describe('variables and overlays', () => {
  it('a variable that resolves an unresolved entry opens its request (variable_changed)', async () => {
    const w = await world({ trusted: true });
    const repo = { type: 'stdio', command: 'npx', args: ['-y', 'repo-mcp', '--dir', '${REPO_DIR}'] };
    await putProject(w, 'owner', { mcpServers: { repo } });
    // Unresolved (REPO_DIR unset): there is no exact definition to review yet.
    expect(await requestsOf(w)).toEqual([]);
    const before = await run(w, 'owner', 'definitions.effective', {
      workspaceId: w.workspaceId,
      view: 'workspace',
    });
    expect(before.entries).toEqual([expect.objectContaining({ name: 'repo', status: 'unresolved' })]);

    await run(w, 'alice', 'definitions.variables.set', {
      scope: 'workspace',
      workspaceId: w.workspaceId,
      name: 'REPO_DIR',
      value: '/srv/checkout',
    });
    const opened = await requestsOf(w);
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({
      serverName: 'repo',
      status: 'open',
      trigger: 'variable_changed',
      principalUserId: null,
    });
    // Four-eyes covers everyone who shaped it: alice set the variable, the owner wrote the source.
    expect([...(opened[0]?.authorUserIds ?? [])].sort()).toEqual([w.users.alice.id, w.users.owner.id].sort());
    expect(JSON.stringify(opened[0]?.projection)).toContain('/srv/checkout');
    const events = await openedEvents(w);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorId: w.users.alice.id, data: { trigger: 'variable_changed' } });

    // Unsetting it leaves the entry unresolved again: nothing new to review, and the request's identity is gone,
    // so it closes itself (withdrawn) rather than wait in the queue as approvable.
    await run(w, 'alice', 'definitions.variables.unset', {
      scope: 'workspace',
      workspaceId: w.workspaceId,
      name: 'REPO_DIR',
    });
    expect(await requestsOf(w)).toEqual([
      expect.objectContaining({
        id: opened[0]?.id,
        status: 'withdrawn',
        closeReason: 'identity_gone',
        openKey: null,
        closedBy: w.users.alice.id,
      }),
    ]);
    expect(await approvalCount(w)).toBe(0);
  });

  it('clearing a workspace overlay opens the request of the server it gives back (overlay_changed)', async () => {
    const w = await world({ trusted: false });
    await putProject(w, 'owner', { mcpServers: { github: GITHUB, filesystem: FILESYSTEM } });
    await run(w, 'alice', 'definitions.overlays.set', {
      workspaceId: w.workspaceId,
      serverName: 'github',
      scope: 'workspace',
    });
    await run(w, 'owner', 'workspaces.setTrust', { workspaceId: w.workspaceId, trusted: true });
    // github is disabled: only filesystem is up for review.
    const afterTrust = await requestsOf(w);
    expect(afterTrust.map((row) => [row.serverName, row.trigger])).toEqual([['filesystem', 'trust_changed']]);

    await run(w, 'alice', 'definitions.overlays.clear', {
      workspaceId: w.workspaceId,
      serverName: 'github',
      scope: 'workspace',
    });
    const open = byServer(await openRequestsOf(w));
    expect(open.size).toBe(2);
    expect(open.get('filesystem')?.id).toBe(afterTrust[0]?.id);
    expect(open.get('github')).toMatchObject({ trigger: 'overlay_changed', principalUserId: null });
    expect(open.get('github')?.authorUserIds).toContain(w.users.alice.id);

    // Clearing what is not there is no change: nothing opens.
    const settled = await requestsOf(w);
    await run(w, 'alice', 'definitions.overlays.clear', {
      workspaceId: w.workspaceId,
      serverName: 'github',
      scope: 'workspace',
    });
    expect(await requestsOf(w)).toEqual(settled);
    expect(await approvalCount(w)).toBe(0);
  });
});

describe('four-eyes authorship', () => {
  async function decide(w: World, who: Who, request: ApprovalRequest, decision: 'approve' | 'deny') {
    return callCommand(
      'rest',
      h.app,
      'approvals.requests.decide',
      {
        requestId: request.id,
        decision,
        seenFingerprint: request.definitionFingerprint,
        seenIdentityKey: request.identityKey,
        ...(decision === 'deny' ? { reason: 'not this change' } : {}),
      },
      w.tokens[who],
    );
  }

  async function openFor(w: World, serverName: string): Promise<ApprovalRequest> {
    const open = (await openRequestsOf(w)).find((row) => row.serverName === serverName);
    if (open === undefined) throw new Error(`no open request for ${serverName}`);
    return open;
  }

  it('keeps the author of a change an author after a denial, another editor and a revocation', async () => {
    const w = await world({ trusted: true });
    await run(w, 'owner', 'hostPolicy.put', {
      stdioCommands: [],
      headerHelpers: [],
      privateCidrs: [],
      traceContextOrigins: [],
      fourEyes: true,
    });
    await putProject(w, 'alice', { mcpServers: { github: GITHUB, filesystem: FILESYSTEM } });
    expect((await decide(w, 'admin', await openFor(w, 'github'), 'approve')).ok).toBe(true);

    // The owner changes github; the admin denies that change.
    const evil = { ...GITHUB, url: 'https://evil.example.com/mcp' };
    await putProject(w, 'owner', { mcpServers: { github: evil, filesystem: FILESYSTEM } }, 1);
    const changed = await openFor(w, 'github');
    expect(changed.authorUserIds).toEqual([w.users.owner.id]);
    expect((await decide(w, 'admin', changed, 'deny')).ok).toBe(true);

    // Alice edits only filesystem: she is the source's last writer, but she did not author github's change.
    const readOnly = { ...FILESYSTEM, args: [...FILESYSTEM.args, '--read-only'] };
    await putProject(w, 'alice', { mcpServers: { github: evil, filesystem: readOnly } }, 2);

    // Asking again after the denial: the owner is still the author of what is under review.
    await run(w, 'owner', 'approvals.requests.open', { workspaceId: w.workspaceId, serverName: 'github' });
    const again = await openFor(w, 'github');
    expect(again.trigger).toBe('review_requested');
    expect(again.authorUserIds).toEqual([w.users.owner.id]);
    const own = await decide(w, 'owner', again, 'approve');
    expect(own).toMatchObject({ ok: false, status: 403, body: { code: 'four_eyes_author' } });
    const approved = await decide(w, 'admin', again, 'approve');
    expect(approved.ok).toBe(true);

    // Revoked: that review no longer counts, so asking again still names the owner as the author.
    const approvalId = (approved.ok ? approved.output['id'] : '') as string;
    await run(w, 'owner', 'approvals.revoke', { approvalId, reason: 'asked again' });
    await run(w, 'owner', 'approvals.requests.open', { workspaceId: w.workspaceId, serverName: 'github' });
    const afterRevoke = await openFor(w, 'github');
    expect(afterRevoke.authorUserIds).toContain(w.users.owner.id);
    expect(await decide(w, 'owner', afterRevoke, 'approve')).toMatchObject({ ok: false, status: 403 });
  });

  it('records who set a variable, so a later writer of it does not hide them', async () => {
    const w = await world({ trusted: false });
    const repo = { type: 'stdio', command: 'npx', args: ['-y', 'repo-mcp', '--dir', '${REPO_DIR}'] };
    await putProject(w, 'alice', { mcpServers: { repo } });
    for (const [who, value] of [
      ['owner', '/srv/one'],
      ['admin', '/srv/two'],
    ] as const) {
      await run(w, who, 'definitions.variables.set', {
        scope: 'workspace',
        workspaceId: w.workspaceId,
        name: 'REPO_DIR',
        value,
      });
    }
    expect(await requestsOf(w)).toEqual([]);
    await run(w, 'admin', 'workspaces.setTrust', { workspaceId: w.workspaceId, trusted: true });
    const open = await openFor(w, 'repo');
    // Alice wrote the entry; the owner and then the admin set the variable it reads (the admin also trusted).
    expect([...open.authorUserIds].sort()).toEqual(
      [w.users.alice.id, w.users.owner.id, w.users.admin.id].sort(),
    );
  });
});

describe('after an approval', () => {
  /** Records a decision the way the decide command would: the reviewed request closes, the approval holds it. */
  async function approve(w: World, request: ApprovalRequest): Promise<string> {
    const id = randomUUID();
    await h.db.withTenant(w.tenant.id, async (tx) => {
      await tx.approvalRequest.update({
        where: { id: request.id },
        data: { status: 'decided', openKey: null, closedAt: new Date(), closedBy: w.users.owner.id },
      });
      await tx.approval.create({
        data: {
          id,
          tenantId: w.tenant.id,
          workspaceId: request.workspaceId,
          requestId: request.id,
          identityKey: request.identityKey,
          serverName: request.serverName,
          sourceTier: request.sourceTier,
          sourceOrigin: request.sourceOrigin,
          definitionFingerprint: request.definitionFingerprint,
          securityIdentity: request.securityIdentity,
          principalUserId: request.principalUserId,
          repositoryIdentity: request.repositoryIdentity,
          workspaceGeneration: request.workspaceGeneration,
          projection: request.projection as object,
          decision: 'approved',
          decidedBy: w.users.owner.id,
        },
      });
    });
    return id;
  }

  async function activationOf(w: World, server: string) {
    const view = await run(w, 'owner', 'definitions.effective', {
      workspaceId: w.workspaceId,
      view: 'workspace',
    });
    const entry = (view.entries as { name: string; activation: Record<string, unknown> }[]).find(
      (candidate) => candidate.name === server,
    );
    return entry?.activation;
  }

  it('a generation bump makes it stale and opens a new request pointing at it, with an empty diff', async () => {
    const w = await world({ trusted: true });
    await putProject(w, 'alice', { mcpServers: { github: GITHUB } });
    const [request] = await requestsOf(w);
    if (request === undefined) throw new Error('no request');
    const approvalId = await approve(w, request);
    expect(await activationOf(w, 'github')).toMatchObject({
      state: 'approved',
      approvalId,
      openRequestId: null,
    });
    // An approved entry is not re-queued by an unrelated event.
    await run(w, 'alice', 'definitions.variables.set', {
      scope: 'workspace',
      workspaceId: w.workspaceId,
      name: 'UNUSED',
      value: 'x',
    });
    expect(await openRequestsOf(w)).toEqual([]);

    await run(w, 'owner', 'workspaces.bumpGeneration', { workspaceId: w.workspaceId, expectedGeneration: 1 });
    const open = await openRequestsOf(w);
    expect(open).toHaveLength(1);
    const bumped = open[0];
    expect(bumped).toMatchObject({
      serverName: 'github',
      trigger: 'generation_bumped',
      previousApprovalId: approvalId,
      workspaceGeneration: 2,
      definitionFingerprint: request.definitionFingerprint,
      securityIdentity: request.securityIdentity,
      changes: [],
    });
    // The owner bumped the generation; the source's writer changed nothing since the approval reviewed it.
    expect(bumped?.authorUserIds).toEqual([w.users.owner.id]);
    expect(bumped?.identityKey).not.toBe(request.identityKey);
    expect(await activationOf(w, 'github')).toMatchObject({
      state: 'stale',
      approvalId,
      staleBecause: ['generation'],
      openRequestId: bumped?.id,
    });
    const events = await openedEvents(w);
    expect(events.at(-1)).toMatchObject({
      targetId: bumped?.id,
      data: { trigger: 'generation_bumped', previousApprovalId: approvalId, changedPaths: [] },
    });

    // Then the definition changes: the bump's request is superseded by one whose diff names the changed field.
    await putProject(
      w,
      'alice',
      { mcpServers: { github: { ...GITHUB, url: 'https://mcp.example.test/v2' } } },
      1,
    );
    const edited = await openRequestsOf(w);
    expect(edited).toHaveLength(1);
    expect(edited[0]).toMatchObject({ trigger: 'source_written', previousApprovalId: approvalId });
    expect(JSON.stringify(edited[0]?.changes)).toContain('https://mcp.example.test/v2');
    expect([...(edited[0]?.authorUserIds ?? [])].sort()).toEqual([w.users.owner.id, w.users.alice.id].sort());

    // The one approval is the one recorded by hand above: no event created or changed an approval.
    const approvals = await h.db.withTenant(w.tenant.id, (tx) => tx.approval.findMany());
    expect(approvals.map((approval) => [approval.id, approval.decision, approval.revokedAt])).toEqual([
      [approvalId, 'approved', null],
    ]);
  });
});

describe('per-user requests', () => {
  it("a user source opens the author's own requests in every workspace, and leaves another user's alone", async () => {
    const w = await world({ trusted: true });
    const second = await createTestWorkspace(h.db, w.tenant.id, { trusted: false });
    const notes = (owner: string) =>
      JSON.stringify({
        mcpServers: { notes: { command: 'node', args: ['/opt/notes-mcp/index.js', owner] } },
      });
    await run(w, 'bob', 'definitions.sources.import', { tier: 'user', content: notes('bob') });
    const bobs = await requestsOf(w);
    expect(bobs.map((row) => [row.workspaceId, row.principalUserId]).sort()).toEqual(
      [
        [w.workspaceId, w.users.bob.id],
        [second.id, w.users.bob.id],
      ].sort(),
    );

    await run(w, 'alice', 'definitions.sources.import', { tier: 'user', content: notes('alice') });
    const all = await requestsOf(w);
    expect(all).toHaveLength(4);
    // Bob's requests are exactly as they were: not superseded, no new author.
    expect(all.filter((row) => row.principalUserId === w.users.bob.id)).toEqual(bobs);
    const alices = all.filter((row) => row.principalUserId === w.users.alice.id);
    expect(alices.map((row) => row.workspaceId).sort()).toEqual([w.workspaceId, second.id].sort());
    for (const row of alices) {
      expect(row).toMatchObject({
        serverName: 'notes',
        status: 'open',
        trigger: 'source_written',
        sourceTier: 'user',
        sourceOrigin: `user:${w.users.alice.id}`,
        authorUserIds: [w.users.alice.id],
        // A user source lives outside every repository: it binds to neither repository nor generation.
        repositoryIdentity: null,
        workspaceGeneration: null,
      });
    }

    // A local source is the author's own, in one workspace.
    await run(w, 'alice', 'definitions.sources.import', {
      tier: 'local',
      workspaceId: w.workspaceId,
      content: JSON.stringify({ mcpServers: { scratch: { command: 'node', args: ['/tmp/scratch.js'] } } }),
    });
    const local = (await requestsOf(w)).filter((row) => row.serverName === 'scratch');
    expect(local).toEqual([
      expect.objectContaining({
        workspaceId: w.workspaceId,
        principalUserId: w.users.alice.id,
        sourceTier: 'local',
      }),
    ]);
    expect(await approvalCount(w)).toBe(0);
  });
});

describe("a shared change and other users' approvals", () => {
  it('opens a request for a user whose per-user approval a managed edit made stale', async () => {
    const w = await world({ trusted: true });
    const board = (extra: string) => ({
      mcpServers: { board: { command: 'node', args: ['/opt/board.js', '--user', '${HANDLE}', extra] } },
    });
    await run(w, 'owner', 'definitions.sources.put', {
      tier: 'managed',
      name: 'boards',
      document: board('v1'),
    });
    // Bob's own variable makes board per user: his view has its own request, which the admin approves.
    await run(w, 'bob', 'definitions.variables.set', { scope: 'user', name: 'HANDLE', value: 'bob' });
    const bobs = (await openRequestsOf(w)).find((row) => row.principalUserId === w.users.bob.id);
    if (bobs === undefined) throw new Error('no request for bob');
    await run(w, 'admin', 'approvals.requests.decide', {
      requestId: bobs.id,
      decision: 'approve',
      seenFingerprint: bobs.definitionFingerprint,
      seenIdentityKey: bobs.identityKey,
    });
    expect((await openRequestsOf(w)).filter((row) => row.principalUserId === w.users.bob.id)).toEqual([]);

    // The owner edits the managed entry: bob's approval is stale, and his new request reaches the queue.
    await run(w, 'owner', 'definitions.sources.put', {
      tier: 'managed',
      name: 'boards',
      document: board('v2'),
      expectedVersion: 1,
    });
    const stale = (await openRequestsOf(w)).filter((row) => row.principalUserId === w.users.bob.id);
    expect(stale).toEqual([
      expect.objectContaining({
        serverName: 'board',
        trigger: 'source_written',
        previousApprovalId: expect.any(String),
      }),
    ]);
    expect(stale[0]?.authorUserIds).toContain(w.users.owner.id);
    expect(JSON.stringify(stale[0]?.changes)).toContain('v2');
  });
});

describe('deleting a source', () => {
  it('opens the request of the entry it un-shadows', async () => {
    const w = await world({ trusted: true });
    await putProject(w, 'owner', { mcpServers: { github: GITHUB } });
    const [project] = await requestsOf(w);
    const managed = await run(w, 'owner', 'definitions.sources.put', {
      tier: 'managed',
      name: 'org-policy',
      document: { mcpServers: { github: { type: 'http', url: 'https://github.mcp.example.test/' } } },
    });
    const shadowing = await openRequestsOf(w);
    expect(shadowing.map((row) => [row.serverName, row.sourceTier])).toEqual([['github', 'managed']]);

    await run(w, 'owner', 'definitions.sources.delete', { sourceId: managed.id, expectedVersion: 1 });
    const open = await openRequestsOf(w);
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ serverName: 'github', sourceTier: 'project', trigger: 'source_written' });
    // The project entry is back as it was, but its first request was superseded meanwhile: a new one opens.
    expect(open[0]?.identityKey).toBe(project?.identityKey);
    expect(open[0]?.id).not.toBe(project?.id);
    expect(await approvalCount(w)).toBe(0);
  });
});

describe('never from a read, never an approval', () => {
  it('reads open nothing, even where requests are due', async () => {
    const w = await world({ trusted: false });
    const put = await putProject(w, 'owner', { mcpServers: { github: GITHUB } });
    // Trusted behind the API's back: the entry is now due for review but no event opened its request.
    await h.db.withTenant(w.tenant.id, (tx) =>
      tx.workspace.update({ where: { id: w.workspaceId }, data: { trusted: true } }),
    );
    const counts = () =>
      h.db.withTenant(w.tenant.id, async (tx) => ({
        requests: await tx.approvalRequest.count(),
        approvals: await tx.approval.count(),
        audit: await tx.auditEvent.count(),
      }));
    const before = await counts();
    expect(before).toMatchObject({ requests: 0, approvals: 0 });

    for (const who of ['owner', 'alice', 'bob'] as const) {
      for (const view of ['workspace', 'principal']) {
        const effective = await run(w, who, 'definitions.effective', { workspaceId: w.workspaceId, view });
        expect(effective.entries).toEqual([
          expect.objectContaining({
            name: 'github',
            activation: expect.objectContaining({ state: 'pending', openRequestId: null }),
          }),
        ]);
      }
      await run(w, who, 'definitions.sources.list', { workspaceId: w.workspaceId });
      await run(w, who, 'definitions.sources.get', { sourceId: put.id });
      await run(w, who, 'definitions.variables.list', { scope: 'user' });
    }
    expect(await counts()).toEqual(before);
  });

  it('refuses approval-claiming keys at decode and opens nothing for them; a plugin import creates no approval', async () => {
    const w = await world({ trusted: true });
    const claimed = await putProject(w, 'owner', {
      approved: true,
      mcpServers: { github: { ...GITHUB, autoApprove: true }, other: { ...GITHUB, trusted: true } },
    });
    expect(claimed.problems).toEqual([
      expect.objectContaining({ reason: 'approval_claim', path: ['approved'] }),
    ]);
    expect(claimed.entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: 'github',
          state: 'malformed',
          problems: [expect.objectContaining({ reason: 'approval_claim', path: ['autoApprove'] })],
        }),
        expect.objectContaining({
          name: 'other',
          state: 'malformed',
          problems: [expect.objectContaining({ reason: 'approval_claim', path: ['trusted'] })],
        }),
      ]),
    );
    // A claimed entry never resolves, so there is nothing to review and nothing approved.
    const view = await run(w, 'owner', 'definitions.effective', {
      workspaceId: w.workspaceId,
      view: 'workspace',
    });
    for (const entry of view.entries as { status: string; activation: { state: string } }[]) {
      expect(entry.status).not.toBe('resolved');
      expect(entry.activation.state).not.toBe('approved');
    }
    expect(await requestsOf(w)).toEqual([]);

    // A plugin (tenant-wide) import asks for review in the trusted workspace; it approves nothing.
    await run(w, 'owner', 'definitions.sources.import', {
      tier: 'plugin',
      name: 'acme',
      content: JSON.stringify({
        mcpServers: { acme: { type: 'http', url: 'https://acme.example.test/mcp' } },
      }),
    });
    expect((await requestsOf(w)).map((row) => [row.serverName, row.sourceTier, row.status])).toEqual([
      ['acme', 'plugin', 'open'],
    ]);
    expect(await approvalCount(w)).toBe(0);
  });
});
