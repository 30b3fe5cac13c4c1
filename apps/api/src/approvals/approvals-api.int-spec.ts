import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { createDatabase, type Database } from '@gatehouse/db';
import { createLogger, parseConfig } from '@gatehouse/platform';
import {
  createTestDatabase,
  createTestTenant,
  testRedisUrl,
  TEST_DATABASE_TIMEOUT_MS,
  type TestDatabase,
  type TestTenant,
  type TestUser,
} from '@gatehouse/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { createMember, mintTestToken, TEST_PASSWORD } from '../commands/testing/surfaces-harness';
import { apiConfigSchema } from '../config/api.config';
import { createApiApp } from '../create-api-app';

// The approval workflow end to end through the real API (createApiApp: REST + GraphQL, real Postgres and
// Redis): requests asked for with `approvals.requests.open` (whether or not the write hooks opened them first),
// decisions with compare-and-swap and four-eyes, denial, revocation, expiry, stale approvals with the diff, the
// audit trail, and a canary secret that must never come out of any of it.

jest.setTimeout(180_000);

const CANARY = `cnryappr${randomBytes(9).toString('hex')}`;
const KEY_B64 = randomBytes(32).toString('base64');

let testDb: TestDatabase;
let db: Database;
let app: NestFastifyApplication;
let acme: TestTenant;
let workspaceId = '';
let untrustedWorkspaceId = '';
let emptyWorkspaceId = '';
let managedName = '';
const bodies: string[] = [];

type Who = 'owner' | 'admin' | 'approver' | 'approver2' | 'member' | 'agent' | 'globex';
const tokens: Record<Who, string> = {
  owner: '',
  admin: '',
  approver: '',
  approver2: '',
  member: '',
  agent: '',
  globex: '',
};
const users: Partial<Record<Who, TestUser>> = {};
/** approver2 decides through a dashboard session (cookie + CSRF), the other people with user tokens. */
let session: Record<string, string> = {};

type Body = Record<string, unknown>;
type Reply = { status: number; body: Body };

async function send(headers: Record<string, string>, method: string, url: string, payload?: unknown) {
  const response = await app.inject({
    method: method as 'GET',
    url,
    headers: { ...headers, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
  });
  bodies.push(response.body);
  return { status: response.statusCode, body: JSON.parse(response.body || 'null') as Body };
}

function rest(who: Who, method: string, url: string, payload?: unknown): Promise<Reply> {
  return send({ authorization: `Bearer ${tokens[who]}` }, method, url, payload);
}

async function graphql(who: Who, query: string, variables: Body) {
  const reply = await rest(who, 'POST', '/graphql', { query, variables });
  return reply.body as { data?: Record<string, Body | null>; errors?: { extensions?: Body }[] };
}

function user(who: Who): TestUser {
  const found = users[who];
  if (found === undefined) throw new Error(`no user ${who}`);
  return found;
}

/** Shaped like a `.mcp.json`: a stdio server with a literal secret in its env, two http servers, one unset. */
function projectDocument(toolsArgs: string[], sentryUrl = 'https://mcp.sentry.dev/mcp') {
  return {
    mcpServers: {
      tools: { type: 'stdio', command: 'npx', args: toolsArgs, env: { API_KEY: CANARY } },
      github: { type: 'http', url: 'https://api.githubcopilot.com/mcp/' },
      sentry: { type: 'http', url: sentryUrl },
      needsvar: { type: 'http', url: 'https://${UNSET_HOST_FOR_TEST}/mcp' },
    },
  };
}

interface Identity {
  key: string;
  serverName: string;
  source: { tier: string; origin: string };
  definitionFingerprint: string;
  principalUserId: string | null;
  workspaceGeneration: number | null;
}
interface RequestOut {
  id: string;
  workspaceId: string;
  status: string;
  trigger: string;
  identity: Identity;
  projection: Body;
  previousApprovalId: string | null;
  changes: { kind: string; path: string[]; before?: unknown; after?: unknown }[];
  authorUserIds: string[];
  closedBy: string | null;
  approvalId: string | null;
}
interface Activation {
  state: string;
  reasons: string[];
  approvalId: string | null;
  expiresAt: string | null;
  staleBecause: string[];
  openRequestId: string | null;
}

let projectVersion = 0;

async function writeProject(document: Body): Promise<void> {
  const put = await rest('admin', 'PUT', '/v1/definition-sources', {
    tier: 'project',
    workspaceId,
    document,
    ...(projectVersion > 0 ? { expectedVersion: projectVersion } : {}),
  });
  expect(put.status).toBe(200);
  projectVersion = put.body.version as number;
}

async function activationOf(
  who: Who,
  server: string,
  view: 'workspace' | 'principal' = 'workspace',
): Promise<Activation> {
  const reply = await rest(who, 'GET', `/v1/workspaces/${workspaceId}/effective-definitions?view=${view}`);
  expect(reply.status).toBe(200);
  const entry = (reply.body.entries as { name: string; activation: Activation }[]).find(
    (e) => e.name === server,
  );
  if (entry === undefined) throw new Error(`no entry ${server}`);
  return entry.activation;
}

async function openRequest(
  who: Who,
  server: string,
  view: 'workspace' | 'principal' = 'workspace',
): Promise<RequestOut> {
  const reply = await rest(who, 'POST', `/v1/workspaces/${workspaceId}/approval-requests`, {
    serverName: server,
    view,
  });
  expect({ status: reply.status, body: reply.body }).toMatchObject({ status: 201 });
  return reply.body as unknown as RequestOut;
}

function decision(request: RequestOut, verb: 'approve' | 'deny', extra: Body = {}): Body {
  return {
    decision: verb,
    seenFingerprint: request.identity.definitionFingerprint,
    seenIdentityKey: request.identity.key,
    ...extra,
  };
}

function decide(who: Who, requestId: string, body: Body): Promise<Reply> {
  return rest(who, 'POST', `/v1/approval-requests/${requestId}/decision`, body);
}

async function auditOf(
  action: string,
): Promise<{ targetId: string; outcome: string; actorId: string; data: Body }[]> {
  const reply = await rest('owner', 'GET', `/v1/audit-events?action=${action}&limit=200`);
  expect(reply.status).toBe(200);
  return reply.body.items as { targetId: string; outcome: string; actorId: string; data: Body }[];
}

async function approvalsOfRequest(requestId: string): Promise<number> {
  const admin = new Client({ connectionString: testDb.adminUrl });
  await admin.connect();
  try {
    const rows = await admin.query<{ n: string }>(
      'SELECT count(*) AS n FROM approvals WHERE request_id = $1',
      [requestId],
    );
    return Number(rows.rows[0]?.n);
  } finally {
    await admin.end();
  }
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 3 });
  acme = await createTestTenant(db);
  const globex = await createTestTenant(db);
  for (const [who, role] of [
    ['owner', 'owner'],
    ['admin', 'admin'],
    ['approver', 'approver'],
    ['approver2', 'approver'],
    ['member', 'member'],
  ] as const) {
    users[who] = await createMember(db, acme, role);
    tokens[who] = (await mintTestToken(db, acme, user(who), { kind: 'user' })).secret;
  }
  users.globex = await createMember(db, globex, 'owner');
  tokens.globex = (await mintTestToken(db, globex, user('globex'), { kind: 'user' })).secret;

  const parsed = parseConfig(apiConfigSchema, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL: testDb.appUrl,
    REDIS_URL: testRedisUrl(),
    GATEHOUSE_KEYS: `k1:${KEY_B64}`,
    GATEHOUSE_ACTIVE_KEY_ID: 'k1',
  });
  if (!parsed.ok) throw new Error(parsed.message);
  const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });
  app = await createApiApp(parsed.config, {
    logger: createLogger({ name: 'approvals-test', level: 'warn', destination: quiet }),
  });

  // Workspaces through the API: one trusted (where the flow runs), one left untrusted, one with nothing in it.
  const created = await rest('admin', 'POST', '/v1/workspaces', { name: 'repo-approvals' });
  workspaceId = created.body.id as string;
  expect((await rest('admin', 'PUT', `/v1/workspaces/${workspaceId}/trust`, { trusted: true })).status).toBe(
    200,
  );
  untrustedWorkspaceId = (await rest('admin', 'POST', '/v1/workspaces', { name: 'repo-untrusted' })).body
    .id as string;
  emptyWorkspaceId = (await rest('admin', 'POST', '/v1/workspaces', { name: 'repo-empty' })).body
    .id as string;
  tokens.agent = (
    await mintTestToken(db, acme, user('owner'), {
      kind: 'agent',
      scopes: ['catalog:read'],
      workspaceIds: [workspaceId],
    })
  ).secret;

  await writeProject(projectDocument(['-y', 'tools-mcp']));
  managedName = `policy-${randomBytes(3).toString('hex')}`;
  const managed = await rest('owner', 'PUT', '/v1/definition-sources', {
    tier: 'managed',
    name: managedName,
    document: {
      mcpServers: { [`${managedName}-http`]: { type: 'http', url: 'https://mcp.example.test/mcp' } },
    },
  });
  expect(managed.status).toBe(200);

  const login = await app.inject({
    method: 'POST',
    url: '/v1/auth/login',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ email: user('approver2').email, password: TEST_PASSWORD, tenant: acme.slug }),
  });
  expect(login.statusCode).toBe(200);
  const setCookie = login.headers['set-cookie'];
  const cookie = (Array.isArray(setCookie) ? setCookie[0] : setCookie)?.split(';')[0];
  if (cookie === undefined) throw new Error('no session cookie');
  session = { cookie, 'x-csrf-token': (JSON.parse(login.body) as { csrfToken: string }).csrfToken };
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await app?.close();
  await db?.close();
  await testDb?.drop();
}, TEST_DATABASE_TIMEOUT_MS);

describe('the approval workflow through the API', () => {
  let toolsRequest: RequestOut;
  let toolsApprovalId = '';
  let managedApprovalId = '';

  it('opens a request for review (once per identity) and shows it in the queue and on the server', async () => {
    toolsRequest = await openRequest('approver', 'tools');
    expect(toolsRequest).toMatchObject({
      workspaceId,
      status: 'open',
      identity: {
        serverName: 'tools',
        source: { tier: 'project', origin: `project:${workspaceId}` },
        principalUserId: null,
        workspaceGeneration: 1,
      },
      previousApprovalId: null,
      changes: [],
      approvalId: null,
    });
    expect(['review_requested', 'source_written']).toContain(toolsRequest.trigger);
    expect(toolsRequest.identity.key).toMatch(/^aid:v1:[0-9a-f]{64}$/);
    // The admin wrote the definition: with four-eyes on they could not approve it.
    expect(toolsRequest.authorUserIds).toContain(user('admin').id);
    expect(toolsRequest.projection).toMatchObject({
      transport: { kind: 'stdio', args: ['-y', 'tools-mcp'] },
    });

    const again = await openRequest('member', 'tools');
    expect(again.id).toBe(toolsRequest.id);
    const read = await rest('approver', 'GET', `/v1/approval-requests/${toolsRequest.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(toolsRequest);
    const queue = await rest(
      'approver',
      'GET',
      `/v1/approval-requests?workspaceId=${workspaceId}&serverName=tools`,
    );
    expect((queue.body.items as RequestOut[]).map((r) => r.id)).toEqual([toolsRequest.id]);

    expect(await activationOf('member', 'tools')).toMatchObject({
      state: 'pending',
      reasons: ['no_admission_decision'],
      openRequestId: toolsRequest.id,
    });
  });

  it('refuses to open what is not in the view (404) or not approvable (409 with the state)', async () => {
    const url = `/v1/workspaces/${workspaceId}/approval-requests`;
    const missing = await rest('approver', 'POST', url, { serverName: 'nope' });
    expect(missing).toMatchObject({ status: 404, body: { code: 'not_found' } });
    const unresolved = await rest('approver', 'POST', url, { serverName: 'needsvar' });
    expect(unresolved).toMatchObject({
      status: 409,
      body: {
        code: 'not_approvable',
        activationState: 'pending',
        entryStatus: 'unresolved',
        reasons: ['entry_unusable'],
      },
    });

    const untrusted = await rest('admin', 'PUT', '/v1/definition-sources', {
      tier: 'project',
      workspaceId: untrustedWorkspaceId,
      document: projectDocument(['-y', 'tools-mcp']),
    });
    expect(untrusted.status).toBe(200);
    const refused = await rest(
      'approver',
      'POST',
      `/v1/workspaces/${untrustedWorkspaceId}/approval-requests`,
      {
        serverName: 'github',
      },
    );
    expect(refused).toMatchObject({
      status: 409,
      body: { code: 'not_approvable', activationState: 'untrusted', reasons: ['untrusted_workspace_source'] },
    });
    const otherTenant = await rest('globex', 'POST', url, { serverName: 'tools' });
    expect(otherTenant).toMatchObject({ status: 404, body: { code: 'not_found' } });
    // An agent token holds no definitions:read, let alone a person to ask in the name of.
    expect((await rest('agent', 'POST', url, { serverName: 'tools' })).status).toBe(403);
  });

  it('lets only a human approver decide: agent tokens and members are refused', async () => {
    const body = decision(toolsRequest, 'approve');
    expect(await decide('agent', toolsRequest.id, body)).toMatchObject({
      status: 403,
      body: { code: 'forbidden_scope' },
    });
    expect(await decide('member', toolsRequest.id, body)).toMatchObject({
      status: 403,
      body: { code: 'forbidden_scope' },
    });
    expect(await approvalsOfRequest(toolsRequest.id)).toBe(0);
  });

  it('refuses an expiry in the past (400) and records nothing', async () => {
    const past = await decide(
      'approver',
      toolsRequest.id,
      decision(toolsRequest, 'approve', { expiresAt: '2001-01-01T00:00:00Z' }),
    );
    expect(past).toMatchObject({ status: 400, body: { code: 'validation_failed' } });
    expect(await approvalsOfRequest(toolsRequest.id)).toBe(0);
  });

  it('approves exactly what was reviewed: the server shows approved, the request decided', async () => {
    const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const approved = await decide(
      'approver',
      toolsRequest.id,
      decision(toolsRequest, 'approve', { expiresAt }),
    );
    expect(approved.status).toBe(201);
    expect(approved.body).toMatchObject({
      workspaceId,
      requestId: toolsRequest.id,
      identity: toolsRequest.identity,
      decision: 'approved',
      decidedBy: user('approver').id,
      expiresAt,
      revokedAt: null,
    });
    toolsApprovalId = approved.body.id as string;
    expect(await activationOf('member', 'tools')).toMatchObject({
      state: 'approved',
      approvalId: toolsApprovalId,
      expiresAt,
      openRequestId: null,
    });
    const read = await rest('approver', 'GET', `/v1/approval-requests/${toolsRequest.id}`);
    expect(read.body).toMatchObject({
      status: 'decided',
      approvalId: toolsApprovalId,
      closedBy: user('approver').id,
    });

    expect(await decide('approver', toolsRequest.id, decision(toolsRequest, 'approve'))).toMatchObject({
      status: 409,
      body: { code: 'request_not_open', requestStatus: 'decided' },
    });
    const reopen = await rest('approver', 'POST', `/v1/workspaces/${workspaceId}/approval-requests`, {
      serverName: 'tools',
    });
    expect(reopen).toMatchObject({
      status: 409,
      body: { code: 'not_approvable', activationState: 'approved' },
    });

    const [audited] = (await auditOf('approvals.requests.decided')).filter(
      (e) => e.targetId === toolsRequest.id,
    );
    expect(audited).toMatchObject({
      outcome: 'success',
      actorId: user('approver').id,
      data: {
        approvalId: toolsApprovalId,
        decision: 'approved',
        expiresAt,
        workspaceId,
        approvalIdentity: toolsRequest.identity.key,
        serverName: 'tools',
        sourceTier: 'project',
        sourceOrigin: `project:${workspaceId}`,
        definitionFingerprint: toolsRequest.identity.definitionFingerprint,
        workspaceGeneration: 1,
        principalUserId: null,
      },
    });
  });

  it('decides over GraphQL and a dashboard session too (a managed server)', async () => {
    const server = `${managedName}-http`;
    const request = await openRequest('owner', server);
    expect(request.identity).toMatchObject({ source: { tier: 'managed' }, workspaceGeneration: null });
    const byAgent = await graphql(
      'agent',
      'mutation D($input: DecideApprovalRequestInput!) { decideApprovalRequest(input: $input) { id } }',
      { input: { requestId: request.id, ...decision(request, 'approve') } },
    );
    expect(byAgent.errors?.[0]?.extensions).toMatchObject({ code: 'forbidden_scope', status: 403 });

    const approved = await send(
      session,
      'POST',
      `/v1/approval-requests/${request.id}/decision`,
      decision(request, 'approve'),
    );
    expect(approved).toMatchObject({
      status: 201,
      body: { decision: 'approved', decidedBy: user('approver2').id },
    });
    managedApprovalId = approved.body.id as string;
    expect(await activationOf('member', server)).toMatchObject({
      state: 'approved',
      approvalId: managedApprovalId,
    });

    const listed = await graphql(
      'approver',
      'query L($input: ApprovalRequestsInput) { approvalRequests(input: $input) { items { id status approvalId } } }',
      { input: { status: 'closed', serverName: server } },
    );
    expect(listed.errors).toBeUndefined();
    expect(listed.data?.approvalRequests?.items).toEqual([
      { id: request.id, status: 'decided', approvalId: managedApprovalId },
    ]);
  });

  it('with four-eyes on, the author of the change cannot approve it; another approver can', async () => {
    const policy = await rest('owner', 'PUT', '/v1/host-policy', {
      stdioCommands: [],
      headerHelpers: [],
      privateCidrs: [],
      traceContextOrigins: [],
      fourEyes: true,
    });
    expect(policy.status).toBe(200);
    const request = await openRequest('approver', 'github');
    expect(request.authorUserIds).toContain(user('admin').id);

    const byAuthor = await decide('admin', request.id, decision(request, 'approve'));
    expect(byAuthor).toMatchObject({ status: 403, body: { code: 'four_eyes_author' } });
    expect(await approvalsOfRequest(request.id)).toBe(0);
    const refusals = (await auditOf('approvals.requests.decision_refused')).filter(
      (e) => e.targetId === request.id,
    );
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatchObject({
      outcome: 'denied',
      actorId: user('admin').id,
      data: {
        reason: 'author_cannot_approve',
        decision: 'approve',
        approvalIdentity: request.identity.key,
        serverName: 'github',
        definitionFingerprint: request.identity.definitionFingerprint,
      },
    });

    const byOther = await decide('approver', request.id, decision(request, 'approve'));
    expect(byOther).toMatchObject({
      status: 201,
      body: { decision: 'approved', decidedBy: user('approver').id },
    });
    expect(await activationOf('member', 'github')).toMatchObject({ state: 'approved' });
  });

  it('after a definition edit: the server is stale, a new request carries the diff, and a decision on what was seen before is refused', async () => {
    await writeProject(projectDocument(['-y', 'tools-mcp', '--verbose']));
    expect(await activationOf('member', 'tools')).toMatchObject({
      state: 'stale',
      approvalId: toolsApprovalId,
      // The argv is part of a stdio server's security identity as well as of its definition.
      staleBecause: ['fingerprint', 'identity'],
    });

    const next = await openRequest('approver', 'tools');
    expect(next.id).not.toBe(toolsRequest.id);
    expect(next.identity.key).not.toBe(toolsRequest.identity.key);
    expect(next).toMatchObject({ status: 'open', previousApprovalId: toolsApprovalId });
    // Field by field against the last approved projection (the redacted one: env stays masked).
    expect(next.changes).toEqual(
      expect.arrayContaining([
        {
          kind: 'changed',
          path: ['transport', 'args'],
          before: ['-y', 'tools-mcp'],
          after: ['-y', 'tools-mcp', '--verbose'],
        },
      ]),
    );
    expect(next.changes.every((change) => change.path[0] === 'transport')).toBe(true);
    expect(await activationOf('member', 'tools')).toMatchObject({ state: 'stale', openRequestId: next.id });

    // The approver decides with what they reviewed before the edit: refused, nothing recorded.
    const stale = await decide('approver', next.id, decision(toolsRequest, 'approve'));
    expect(stale).toMatchObject({ status: 409, body: { code: 'changed_since_review' } });
    expect(stale.body.changed).toEqual(expect.arrayContaining(['fingerprint', 'identity']));
    // The right identity, an old fingerprint: still not what is there now.
    const oldFingerprint = await decide('approver', next.id, {
      ...decision(next, 'approve'),
      seenFingerprint: toolsRequest.identity.definitionFingerprint,
    });
    expect(oldFingerprint).toMatchObject({
      status: 409,
      body: { code: 'changed_since_review', changed: ['fingerprint'] },
    });
    expect(await approvalsOfRequest(next.id)).toBe(0);
    const refused = (await auditOf('approvals.requests.decision_refused')).filter(
      (e) => e.targetId === next.id,
    );
    expect(refused.map((e) => [e.data.reason, e.data.changed])).toEqual(
      expect.arrayContaining([
        ['changed_since_review', ['fingerprint', 'identity']],
        ['changed_since_review', ['fingerprint']],
      ]),
    );

    const approved = await decide('approver', next.id, decision(next, 'approve'));
    expect(approved.status).toBe(201);
    expect(await activationOf('member', 'tools')).toMatchObject({
      state: 'approved',
      approvalId: approved.body.id,
    });
  });

  it('refuses a decision on a superseded request (409) and denies the one that replaced it', async () => {
    const first = await openRequest('approver', 'sentry');
    await writeProject(projectDocument(['-y', 'tools-mcp', '--verbose'], 'https://mcp.sentry.dev/v2/mcp'));
    const second = await openRequest('approver', 'sentry');
    expect(second.id).not.toBe(first.id);
    const old = await rest('approver', 'GET', `/v1/approval-requests/${first.id}`);
    expect(old.body).toMatchObject({ status: 'superseded', approvalId: null });
    expect(second.authorUserIds).toContain(user('admin').id);

    expect(await decide('approver', first.id, decision(first, 'approve'))).toMatchObject({
      status: 409,
      body: { code: 'request_not_open', requestStatus: 'superseded' },
    });
    expect(await approvalsOfRequest(first.id)).toBe(0);

    // A denial says why: without a reason (or with only blanks, or too long) it is refused and nothing is recorded.
    for (const extra of [{}, { reason: '   ' }, { reason: 'x'.repeat(501) }]) {
      expect(await decide('admin', second.id, decision(second, 'deny', extra))).toMatchObject({
        status: 400,
        body: { code: 'validation_failed', errors: [expect.objectContaining({ path: 'reason' })] },
      });
    }
    expect(await approvalsOfRequest(second.id)).toBe(0);

    // Four-eyes binds approvals only: the author may withdraw their own change by denying it.
    const denied = await decide(
      'admin',
      second.id,
      decision(second, 'deny', { reason: '  Sentry is not allowed to see our traces.  ' }),
    );
    expect(denied).toMatchObject({
      status: 201,
      body: {
        decision: 'denied',
        decidedBy: user('admin').id,
        reason: 'Sentry is not allowed to see our traces.',
      },
    });
    // The request and the audit row carry the reason too.
    expect((await rest('approver', 'GET', `/v1/approval-requests/${second.id}`)).body).toMatchObject({
      status: 'decided',
      closeReason: 'decided',
      approvalId: denied.body.id,
      decisionReason: 'Sentry is not allowed to see our traces.',
    });
    const [deniedEvent] = (await auditOf('approvals.requests.decided')).filter(
      (e) => e.targetId === second.id,
    );
    expect(deniedEvent?.data).toMatchObject({
      decision: 'denied',
      reason: 'Sentry is not allowed to see our traces.',
    });
    expect(await activationOf('member', 'sentry')).toMatchObject({
      state: 'denied',
      reasons: ['denial_matches'],
      approvalId: denied.body.id,
    });
  });

  it('revokes (owners and admins only): revoked wins over the approval, and a revoked one cannot be revoked again', async () => {
    const server = `${managedName}-http`;
    const why = { reason: 'The vendor contract ended.' };
    const byApprover = await rest('approver', 'POST', `/v1/approvals/${managedApprovalId}/revoke`, why);
    expect(byApprover).toMatchObject({ status: 403, body: { code: 'forbidden' } });
    expect(await activationOf('member', server)).toMatchObject({ state: 'approved' });
    // A revocation says why.
    for (const payload of [{}, { reason: '' }, { reason: 'x'.repeat(501) }]) {
      expect(await rest('admin', 'POST', `/v1/approvals/${managedApprovalId}/revoke`, payload)).toMatchObject(
        { status: 400, body: { code: 'validation_failed' } },
      );
    }
    expect(await activationOf('member', server)).toMatchObject({ state: 'approved' });

    const revoked = await rest('admin', 'POST', `/v1/approvals/${managedApprovalId}/revoke`, why);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({
      id: managedApprovalId,
      decision: 'approved',
      revokedBy: user('admin').id,
      revokeReason: 'The vendor contract ended.',
    });
    const history = await rest('admin', 'GET', `/v1/approvals?serverName=${server}`);
    expect(history.body.items).toEqual([
      expect.objectContaining({ id: managedApprovalId, revokeReason: 'The vendor contract ended.' }),
    ]);
    expect(revoked.body.revokedAt).toEqual(expect.any(String));
    expect(await activationOf('member', server)).toMatchObject({
      state: 'revoked',
      reasons: ['approval_revoked'],
      approvalId: managedApprovalId,
    });
    expect(await rest('owner', 'POST', `/v1/approvals/${managedApprovalId}/revoke`, why)).toMatchObject({
      status: 409,
      body: { code: 'already_revoked' },
    });
    expect(
      await rest('admin', 'POST', '/v1/approvals/00000000-0000-4000-8000-000000000000/revoke', why),
    ).toMatchObject({
      status: 404,
      body: { code: 'not_found' },
    });

    const [audited] = (await auditOf('approvals.revoked')).filter((e) => e.targetId === managedApprovalId);
    expect(audited).toMatchObject({
      outcome: 'success',
      actorId: user('admin').id,
      data: {
        decision: 'approved',
        reason: 'The vendor contract ended.',
        serverName: server,
        sourceTier: 'managed',
        approvalIdentity: expect.stringMatching(/^aid:v1:/),
      },
    });

    // Asking again after a revocation opens a new request; approving it makes the server approved again.
    const again = await openRequest('approver', server);
    expect(again.status).toBe('open');
    const reapproved = await decide('approver', again.id, decision(again, 'approve'));
    expect(reapproved.status).toBe(201);
    expect(await activationOf('member', server)).toMatchObject({
      state: 'approved',
      approvalId: reapproved.body.id,
    });
  });

  it('approves per user: a request for the caller’s own view binds to them', async () => {
    const put = await rest('member', 'PUT', '/v1/definition-sources', {
      tier: 'user',
      document: { mcpServers: { notes: { type: 'http', url: 'https://notes.example.test/mcp' } } },
    });
    expect(put.status).toBe(200);
    const inWorkspace = await rest('member', 'POST', `/v1/workspaces/${workspaceId}/approval-requests`, {
      serverName: 'notes',
      view: 'workspace',
    });
    expect(inWorkspace.status).toBe(404);
    const request = await openRequest('member', 'notes', 'principal');
    expect(request.identity).toMatchObject({ principalUserId: user('member').id, source: { tier: 'user' } });
    const approved = await decide('approver', request.id, decision(request, 'approve'));
    expect(approved.status).toBe(201);
    expect(await activationOf('member', 'notes', 'principal')).toMatchObject({ state: 'approved' });
  });

  it('a generation bump makes a project approval stale (generation), not a managed one', async () => {
    const bumped = await rest('admin', 'POST', `/v1/workspaces/${workspaceId}/generation`, {});
    expect(bumped.status).toBe(200);
    expect(await activationOf('member', 'tools')).toMatchObject({
      state: 'stale',
      staleBecause: ['generation'],
    });
    expect(await activationOf('member', 'github')).toMatchObject({
      state: 'stale',
      staleBecause: ['generation'],
    });
    expect(await activationOf('member', `${managedName}-http`)).toMatchObject({ state: 'approved' });
    const request = await openRequest('approver', 'tools');
    expect(request.identity.workspaceGeneration).toBe(2);
    // Same definition, new generation: it replaces the last approval, with nothing changed in the projection.
    expect(request.previousApprovalId).toEqual(expect.any(String));
    expect(request.changes).toEqual([]);
  });

  it('lists requests and approvals newest first, page by page, with filters', async () => {
    const all = await rest('approver', 'GET', '/v1/approval-requests?status=all&limit=200');
    const everything = all.body.items as (RequestOut & { openedAt: string })[];
    expect(everything.length).toBeGreaterThanOrEqual(8);
    const order = everything.map((r) => [r.openedAt, r.id].join(' '));
    expect(order).toEqual([...order].sort().reverse());

    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `/v1/approval-requests?status=all&limit=3${cursor === null ? '' : `&cursor=${cursor}`}`;
      const page = await rest('approver', 'GET', query);
      expect(page.status).toBe(200);
      expect((page.body.items as unknown[]).length).toBeLessThanOrEqual(3);
      paged.push(...(page.body.items as RequestOut[]).map((r) => r.id));
      cursor = page.body.nextCursor as string | null;
    } while (cursor !== null);
    expect(paged).toEqual(everything.map((r) => r.id));

    const open = (await rest('approver', 'GET', '/v1/approval-requests')).body.items as RequestOut[];
    expect(open.length).toBeGreaterThan(0);
    expect(open.every((r) => r.status === 'open' && r.approvalId === null)).toBe(true);
    const closed = (await rest('approver', 'GET', '/v1/approval-requests?status=closed&limit=200')).body
      .items as RequestOut[];
    expect(new Set(closed.map((r) => r.status))).toEqual(new Set(['decided', 'superseded']));
    expect(closed.length + open.length).toBe(everything.length);
    expect(closed.filter((r) => r.status === 'decided').every((r) => r.approvalId !== null)).toBe(true);
    const tools = (await rest('approver', 'GET', '/v1/approval-requests?status=all&serverName=tools')).body
      .items as RequestOut[];
    expect(tools.length).toBe(3);
    expect(tools.every((r) => r.identity.serverName === 'tools')).toBe(true);
    const inWorkspace = (
      await rest('approver', 'GET', `/v1/approval-requests?status=all&workspaceId=${workspaceId}&limit=200`)
    ).body.items as RequestOut[];
    expect(inWorkspace.every((r) => r.workspaceId === workspaceId)).toBe(true);
    expect(inWorkspace.map((r) => r.id)).toEqual(expect.arrayContaining(tools.map((r) => r.id)));
    // The write hooks (when present) open tenant-wide servers' requests in every workspace; no project one there.
    const empty = (
      await rest('approver', 'GET', `/v1/approval-requests?status=all&workspaceId=${emptyWorkspaceId}`)
    ).body.items as RequestOut[];
    expect(empty.every((r) => r.workspaceId === emptyWorkspaceId)).toBe(true);
    expect(empty.filter((r) => r.identity.source.tier === 'project')).toEqual([]);

    const approvals = (await rest('approver', 'GET', '/v1/approvals?limit=200')).body.items as {
      id: string;
      decidedAt: string;
      revokedAt: string | null;
    }[];
    expect(approvals.length).toBeGreaterThanOrEqual(7);
    const byDate = approvals.map((a) => [a.decidedAt, a.id].join(' '));
    expect(byDate).toEqual([...byDate].sort().reverse());
    const revoked = (await rest('approver', 'GET', '/v1/approvals?state=revoked')).body.items as {
      id: string;
    }[];
    expect(revoked.map((a) => a.id)).toEqual([managedApprovalId]);
    const active = (await rest('approver', 'GET', '/v1/approvals?state=active&limit=200')).body.items as {
      id: string;
    }[];
    expect(active.length).toBe(approvals.length - 1);
    expect(active.map((a) => a.id)).not.toContain(managedApprovalId);
    const firstPage = await rest('approver', 'GET', '/v1/approvals?limit=2');
    const secondPage = await rest(
      'approver',
      'GET',
      `/v1/approvals?limit=2&cursor=${firstPage.body.nextCursor as string}`,
    );
    expect(
      [...(firstPage.body.items as { id: string }[]), ...(secondPage.body.items as { id: string }[])].map(
        (a) => a.id,
      ),
    ).toEqual(approvals.slice(0, 4).map((a) => a.id));
    const sentry = (await rest('approver', 'GET', '/v1/approvals?serverName=sentry')).body.items as {
      decision: string;
    }[];
    expect(sentry.map((a) => a.decision)).toEqual(['denied']);

    // A cursor is opaque and belongs to its list: an edited one, or one of the other list, is a 400.
    expect(await rest('approver', 'GET', '/v1/approval-requests?cursor=AAAA')).toMatchObject({
      status: 400,
      body: { code: 'bad_cursor' },
    });
    expect(
      await rest('approver', 'GET', `/v1/approval-requests?cursor=${firstPage.body.nextCursor as string}`),
    ).toMatchObject({
      status: 400,
      body: { code: 'bad_cursor' },
    });
    expect((await rest('member', 'GET', '/v1/approval-requests')).status).toBe(403);
  });

  it('gives another tenant nothing: 404 for ids, empty lists', async () => {
    expect(await rest('globex', 'GET', `/v1/approval-requests/${toolsRequest.id}`)).toMatchObject({
      status: 404,
      body: { code: 'not_found' },
    });
    expect(await decide('globex', toolsRequest.id, decision(toolsRequest, 'approve'))).toMatchObject({
      status: 404,
    });
    const revoke = { reason: 'not yours' };
    expect(await rest('globex', 'POST', `/v1/approvals/${toolsApprovalId}/revoke`, revoke)).toMatchObject({
      status: 404,
    });
    expect((await rest('globex', 'GET', '/v1/approval-requests?status=all')).body.items).toEqual([]);
    expect((await rest('globex', 'GET', '/v1/approvals')).body.items).toEqual([]);
    expect((await rest('globex', 'GET', `/v1/approvals?workspaceId=${workspaceId}`)).status).toBe(404);
  });

  it('never lets the canary out: responses, audit rows, request and approval rows', async () => {
    expect(bodies.length).toBeGreaterThan(50);
    for (const body of bodies) expect(body).not.toContain(CANARY);
    const admin = new Client({ connectionString: testDb.adminUrl });
    await admin.connect();
    try {
      const events = await admin.query<{ action: string; data: string }>(
        "SELECT action, data::text AS data FROM audit_events WHERE action LIKE 'approvals.%'",
      );
      const actions = new Set(events.rows.map((row) => row.action));
      for (const action of [
        'approvals.requests.decided',
        'approvals.requests.decision_refused',
        'approvals.revoked',
      ])
        expect(actions).toContain(action);
      for (const row of events.rows) expect(row.data).not.toContain(CANARY);
      for (const table of ['approval_requests', 'approvals']) {
        const hits = await admin.query<{ n: string }>(
          `SELECT count(*) AS n FROM ${table} WHERE row_to_json(${table})::text LIKE '%' || $1 || '%'`,
          [CANARY],
        );
        expect({ table, hits: Number(hits.rows[0]?.n) }).toEqual({ table, hits: 0 });
      }
      const projections = await admin.query<{ n: string }>('SELECT count(*) AS n FROM approvals');
      expect(Number(projections.rows[0]?.n)).toBeGreaterThan(5);
    } finally {
      await admin.end();
    }
  });
});
