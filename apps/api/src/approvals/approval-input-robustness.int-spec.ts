import { randomUUID } from 'node:crypto';
import type { ApprovalRequest } from '@gatehouse/db';
import { TEST_DATABASE_TIMEOUT_MS } from '@gatehouse/testing';
import type { Surface } from '../commands/testing/command-clients';
import { createSurfacesHarness, type SurfacesHarness } from '../commands/testing/surfaces-harness';
import {
  callAs,
  createApprovalWorld,
  requestsOf as requestsOfWorld,
  type ApprovalWorld,
  type Who,
} from './testing/approval-world';

// Tenant input that used to turn a write into a 500 (found by a security review, each with a real request): a
// server name shaped like an API token (the audit guard refuses it in the approval request's event), token-shaped
// text in a changed path, a lone surrogate (jsonb refuses it), a document of unbounded size (one write opening
// thousands of requests), and re-setting an overlay (which made its caller an author of what it opened). Through
// the real command stack: REST (and GraphQL) over the real Fastify app, real Postgres.

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
const call = (w: World, who: Who, name: string, input: Record<string, unknown>, surface: Surface = 'rest') =>
  callAs(h, w, who, name, input, surface);
const requestsOf = (w: World) => requestsOfWorld(h, w);

async function run(
  w: World,
  who: Who,
  name: string,
  input: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const result = await call(w, who, name, input);
  if (!result.ok) throw new Error(`${name} failed: ${result.status} ${JSON.stringify(result.body)}`);
  expect(result.status).toBe(200);
  return result.output;
}

function putProject(w: World, who: Who, document: unknown, expectedVersion?: number) {
  return call(w, who, 'definitions.sources.put', {
    tier: 'project',
    workspaceId: w.workspaceId,
    document,
    ...(expectedVersion === undefined ? {} : { expectedVersion }),
  });
}

function openRequestsOf(w: World): Promise<ApprovalRequest[]> {
  return requestsOf(w).then((rows) => rows.filter((row) => row.status === 'open'));
}

function sourceCount(w: World): Promise<number> {
  return h.db.withTenant(w.tenant.id, (tx) => tx.definitionSource.count());
}

function auditActions(w: World): Promise<string[]> {
  return h.db
    .withTenant(w.tenant.id, (tx) => tx.auditEvent.findMany({ orderBy: { seq: 'asc' } }))
    .then((events) => events.map((event) => event.action));
}

function openedEvents(w: World) {
  return h.db.withTenant(w.tenant.id, (tx) =>
    tx.auditEvent.findMany({ where: { action: 'approvals.requests.opened' }, orderBy: { seq: 'asc' } }),
  );
}

/** Records a decision the way the decide command would: the reviewed request closes, the approval holds it. */
async function approve(w: World, request: ApprovalRequest, expiresAt: Date | null = null): Promise<string> {
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
        // An expired approval was decided before it expired.
        ...(expiresAt === null ? {} : { decidedAt: new Date(expiresAt.getTime() - 60_000), expiresAt }),
      },
    });
  });
  return id;
}

const GITHUB = { type: 'http', url: 'https://api.githubcopilot.com/mcp/' };
const FILESYSTEM = {
  type: 'stdio',
  command: 'npx',
  args: ['-y', '@modelcontextprotocol/server-filesystem', '/srv/repo'],
};
/** A valid name by syntax (letters, digits, one inner `_`), and the shape of a Gatehouse API token. */
const TOKEN_SHAPED = 'ghu_AAAAAAAAAAAAAAAAAAAAAAAA';
const MARKER = /^sha256:[0-9a-f]{16}$/;

describe('a server name shaped like an API token', () => {
  it('is skipped with a source problem: the write answers 200 and only the real server is up for review', async () => {
    const w = await world({ trusted: true });
    const written = await putProject(w, 'owner', {
      mcpServers: { github: GITHUB, [TOKEN_SHAPED]: FILESYSTEM },
    });
    expect(written).toMatchObject({ ok: true, status: 200 });
    if (!written.ok) return;
    expect(written.output.problems).toEqual([{ reason: 'invalid_server_name', path: ['mcpServers', '#1'] }]);
    expect((written.output.entries as { name: string }[]).map((entry) => entry.name)).toEqual(['github']);
    expect(JSON.stringify(written.output)).not.toContain(TOKEN_SHAPED);

    expect((await requestsOf(w)).map((row) => row.serverName)).toEqual(['github']);
    const view = await run(w, 'owner', 'definitions.effective', {
      workspaceId: w.workspaceId,
      view: 'workspace',
    });
    expect((view.entries as { name: string }[]).map((entry) => entry.name)).toEqual(['github']);
    // Nothing to disable either: the overlay names no server of the view.
    const overlay = await call(w, 'alice', 'definitions.overlays.set', {
      workspaceId: w.workspaceId,
      serverName: TOKEN_SHAPED,
      scope: 'workspace',
    });
    expect(overlay).toMatchObject({ ok: false, status: 400, code: 'validation_failed' });
  });

  it('in an untrusted workspace, leaves trusting the workspace afterwards working (it used to 500 forever)', async () => {
    const w = await world({ trusted: false });
    const written = await putProject(w, 'alice', {
      mcpServers: { [TOKEN_SHAPED]: FILESYSTEM, github: GITHUB },
    });
    expect(written).toMatchObject({ ok: true, status: 200 });
    expect(await requestsOf(w)).toEqual([]);

    const trusted = await call(w, 'owner', 'workspaces.setTrust', {
      workspaceId: w.workspaceId,
      trusted: true,
    });
    expect(trusted).toMatchObject({ ok: true, status: 200, output: { trusted: true } });
    expect((await requestsOf(w)).map((row) => [row.serverName, row.trigger])).toEqual([
      ['github', 'trust_changed'],
    ]);
    expect(await auditActions(w)).toEqual([
      'definitions.sources.put',
      'approvals.requests.opened',
      'workspaces.setTrust',
    ]);
  });
});

describe('a tool name in a changed path', () => {
  /** github with tool axes, approved, so an edit of it is stale and opens a request with a diff. */
  async function approvedGithub(w: World, toolAxes: Record<string, unknown>): Promise<string> {
    expect(await putProject(w, 'alice', { mcpServers: { github: { ...GITHUB, toolAxes } } })).toMatchObject({
      ok: true,
    });
    const [request] = await requestsOf(w);
    if (request === undefined) throw new Error('no request');
    return approve(w, request);
  }

  it('shaped like a token: the edit answers 200 and the request event shows a sha256 marker instead', async () => {
    const w = await world({ trusted: true });
    const search = { effect: 'read' };
    const approvalId = await approvedGithub(w, { search });

    const edited = await putProject(
      w,
      'alice',
      { mcpServers: { github: { ...GITHUB, toolAxes: { search, [TOKEN_SHAPED]: { effect: 'read' } } } } },
      1,
    );
    expect(edited).toMatchObject({ ok: true, status: 200 });
    const open = await openRequestsOf(w);
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ serverName: 'github', previousApprovalId: approvalId });
    // The request itself carries the diff as the projection shows it (a reviewer must see what changed).
    expect(open[0]?.changes).toEqual([
      expect.objectContaining({ kind: 'added', path: ['options', 'toolAxes', TOKEN_SHAPED] }),
    ]);
    const event = (await openedEvents(w)).at(-1);
    expect(event).toMatchObject({ targetId: open[0]?.id, data: { previousApprovalId: approvalId } });
    const changedPaths = (event?.data as { changedPaths: string[] }).changedPaths;
    expect(changedPaths).toHaveLength(1);
    expect(changedPaths[0]).toMatch(MARKER);
    expect(JSON.stringify(event?.data)).not.toContain(TOKEN_SHAPED);
  });

  it('600 characters long: the edit answers 200, the entry is refused by its option reader, nothing opens', async () => {
    const w = await world({ trusted: true });
    const search = { effect: 'read' };
    await approvedGithub(w, { search });
    const requestsBefore = await requestsOf(w);

    const long = 't'.repeat(600);
    const edited = await putProject(
      w,
      'alice',
      { mcpServers: { github: { ...GITHUB, toolAxes: { search, [long]: { effect: 'read' } } } } },
      1,
    );
    expect(edited).toMatchObject({ ok: true, status: 200 });
    if (!edited.ok) return;
    expect(edited.output.entries).toEqual([
      expect.objectContaining({
        name: 'github',
        state: 'malformed',
        problems: [
          expect.objectContaining({ reason: 'invalid_option', option: 'toolAxes', detail: 'name_too_long' }),
        ],
      }),
    ]);
    expect(JSON.stringify(edited.output)).not.toContain(long);
    // An unusable entry has no identity to review: the approval's request stays the only one.
    expect(await requestsOf(w)).toEqual(requestsBefore);
  });
});

describe('ill-formed text', () => {
  const LONE = '\ud800';

  it.each<Surface>(['rest', 'graphql'])(
    'a lone surrogate in args is refused with 400 invalid_characters over %s, and nothing is written',
    async (surface) => {
      const w = await world({ trusted: true });
      const refused = await call(
        w,
        'owner',
        'definitions.sources.put',
        {
          tier: 'project',
          workspaceId: w.workspaceId,
          document: { mcpServers: { filesystem: { ...FILESYSTEM, args: [LONE] } } },
        },
        surface,
      );
      expect(refused).toMatchObject({ ok: false, status: 400, code: 'invalid_characters' });
      expect(await sourceCount(w)).toBe(0);
      expect(await requestsOf(w)).toEqual([]);
      expect(await auditActions(w)).toEqual([]);
    },
  );

  it('a lone surrogate escape inside an imported file is refused the same way (the edge sees only text)', async () => {
    const w = await world({ trusted: true });
    const content = '{"mcpServers": {"filesystem": {"command": "npx", "args": ["\\ud800"]}}}';
    const refused = await call(w, 'owner', 'definitions.sources.import', {
      tier: 'project',
      workspaceId: w.workspaceId,
      content,
    });
    expect(refused).toMatchObject({ ok: false, status: 400, code: 'invalid_characters' });
    expect(await sourceCount(w)).toBe(0);
    expect(await auditActions(w)).toEqual([]);
  });
});

describe('the number of servers in one document', () => {
  const serversOf = (count: number) =>
    Object.fromEntries(Array.from({ length: count }, (_, i) => [`s${i}`, { ...FILESYSTEM }]));

  it('is at most 200: a larger document is refused as a whole, and nothing is written or opened', async () => {
    const w = await world({ trusted: true });
    const refused = await putProject(w, 'owner', { mcpServers: serversOf(201) });
    expect(refused).toMatchObject({ ok: false, status: 400, code: 'validation_failed' });
    if (refused.ok) return;
    expect((refused.body as { errors: unknown }).errors).toEqual([
      { path: 'document.mcpServers', message: 'may hold at most 200 servers' },
    ]);
    expect(await sourceCount(w)).toBe(0);
    expect(await requestsOf(w)).toEqual([]);
    expect(await auditActions(w)).toEqual([]);
  });

  it('accepts exactly 200', async () => {
    // Untrusted: the write opens nothing, so only the bound itself is measured here.
    const w = await world({ trusted: false });
    const written = await putProject(w, 'owner', { mcpServers: serversOf(200) });
    expect(written).toMatchObject({ ok: true, status: 200 });
    if (!written.ok) return;
    expect(written.output.entries).toHaveLength(200);
    expect(await sourceCount(w)).toBe(1);
  });
});

describe('setting an overlay that already exists', () => {
  it('opens nothing: only creating it re-decides the view (so re-setting makes no one an author)', async () => {
    const w = await world({ trusted: true });
    expect(
      await putProject(w, 'owner', { mcpServers: { github: GITHUB, filesystem: FILESYSTEM } }),
    ).toMatchObject({
      ok: true,
    });
    const expired = new Date(Date.now() - 60_000);
    // github was approved, but the approval has expired since: it waits for the next event to be reviewed again.
    const first = (await openRequestsOf(w)).find((row) => row.serverName === 'github');
    if (first === undefined) throw new Error('no github request');
    await approve(w, first, expired);

    const overlay = { workspaceId: w.workspaceId, serverName: 'filesystem', scope: 'workspace' };
    await run(w, 'alice', 'definitions.overlays.set', { ...overlay, reason: 'not needed here' });
    // Creating the overlay is an event: github is re-decided and its review opens, with alice among its authors.
    const reopened = (await openRequestsOf(w)).find((row) => row.serverName === 'github');
    expect(reopened).toMatchObject({ trigger: 'overlay_changed' });
    expect(reopened?.authorUserIds).toContain(w.users.alice.id);
    if (reopened === undefined) return;

    // Reviewed again, and expired again: the state the second set meets.
    await approve(w, reopened, expired);
    const before = await requestsOf(w);
    const again = await run(w, 'alice', 'definitions.overlays.set', {
      ...overlay,
      reason: 'still not needed',
    });
    expect(again).toMatchObject({ serverName: 'filesystem', disabled: true, reason: 'still not needed' });
    expect(await requestsOf(w)).toEqual(before);
    expect((await auditActions(w)).filter((action) => action === 'definitions.overlays.set')).toHaveLength(2);
  });
});

describe('other names that reach audit events', () => {
  it('a token-shaped source name, variable name or repository identity is a 400 at the edge, never a 500', async () => {
    const w = await world({ trusted: true });
    const refusals = [
      await call(w, 'owner', 'definitions.sources.put', {
        tier: 'managed',
        name: TOKEN_SHAPED,
        document: { mcpServers: { github: GITHUB } },
      }),
      await call(w, 'owner', 'definitions.variables.set', {
        scope: 'tenant',
        name: TOKEN_SHAPED,
        value: 'x',
      }),
      await call(w, 'owner', 'workspaces.create', {
        name: 'elsewhere',
        repositoryIdentity: `https://git.example.com/acme/${TOKEN_SHAPED}`,
      }),
    ];
    for (const refused of refusals) {
      expect(refused).toMatchObject({ ok: false, status: 400, code: 'validation_failed' });
    }
    expect(await sourceCount(w)).toBe(0);
    expect(await auditActions(w)).toEqual([]);
  });
});
