import { randomBytes, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { createDatabase, type Database } from '@gatehouse/db';
import { editableDocumentOf, REDACTED } from '@gatehouse/definitions';
import { createLogger, parseConfig } from '@gatehouse/platform';
import {
  createTestDatabase,
  createTestTenant,
  testRedisUrl,
  TEST_DATABASE_TIMEOUT_MS,
  type TestDatabase,
  type TestTenant,
} from '@gatehouse/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { createMember, mintTestToken } from '../commands/testing/surfaces-harness';
import { apiConfigSchema } from '../config/api.config';
import { createApiApp } from '../create-api-app';

// The source editor's API (decisions 0085, 0086), through the real API on real Postgres and
// Redis: the editable document keeps stored secrets on a save, an identical save changes nothing, the preview
// answers what a put would do and leaves no trace, and each write is a version with a diff.

jest.setTimeout(120_000);

const SECRET = `edsecret${randomBytes(9).toString('hex')}`;
const HEADER_SECRET = `edheader${randomBytes(9).toString('hex')}`;
const KEY_B64 = randomBytes(32).toString('base64');

type Body = Record<string, unknown>;

let testDb: TestDatabase;
let db: Database;
let admin: Client;
let app: NestFastifyApplication;
let tenant: TestTenant;
let workspaceId: string;
const tokens = { owner: '', maintainer: '', other: '' };
type Who = keyof typeof tokens;
const bodies: string[] = [];
const logLines: string[] = [];

function checkpointsLogged(): number {
  return logLines.filter((line) => line.includes('"audit.checkpoint"')).length;
}

function document(extra: Body = {}): Body {
  return {
    mcpServers: {
      files: {
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '/srv/repo'],
        env: { API_KEY: SECRET, HOME_DIR: '${HOME_DIR}' },
      },
      api: {
        type: 'http',
        url: 'https://mcp.example.com/mcp',
        headers: { Authorization: `Bearer ${HEADER_SECRET}` },
      },
      ...extra,
    },
  };
}

async function rest(who: Who, method: string, url: string, payload?: unknown) {
  const response = await app.inject({
    method: method as 'GET',
    url,
    headers: {
      authorization: `Bearer ${tokens[who]}`,
      ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
  });
  bodies.push(response.body);
  return { status: response.statusCode, body: JSON.parse(response.body || 'null') as Body };
}

/** Rows that a write leaves behind, counted as the database owner sees them (no RLS in the way). */
async function traces(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of [
    'definition_sources',
    'definition_source_versions',
    'audit_events',
    'revocation_events',
    'approval_requests',
    'definition_entry_authors',
  ]) {
    const result = await admin.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM ${table} WHERE tenant_id = $1`,
      [tenant.id],
    );
    counts[table] = Number(result.rows[0]?.n);
  }
  const version = await admin.query<{ v: number | null }>(
    'SELECT max(version) AS v FROM definition_sources WHERE tenant_id = $1',
    [tenant.id],
  );
  counts['version'] = version.rows[0]?.v ?? 0;
  return counts;
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 3 });
  admin = new Client({ connectionString: testDb.adminUrl });
  await admin.connect();
  tenant = await createTestTenant(db);
  const owner = await createMember(db, tenant, 'owner');
  const maintainer = await createMember(db, tenant, 'member');
  const other = await createMember(db, tenant, 'member');
  workspaceId = randomUUID();
  await db.withTenant(tenant.id, async (tx) => {
    await tx.workspace.create({
      data: { id: workspaceId, tenantId: tenant.id, name: 'repo-editor', trusted: true },
    });
    await tx.workspaceMember.create({ data: { tenantId: tenant.id, workspaceId, userId: maintainer.id } });
  });
  tokens.owner = (await mintTestToken(db, tenant, owner, { kind: 'user' })).secret;
  tokens.maintainer = (await mintTestToken(db, tenant, maintainer, { kind: 'user' })).secret;
  tokens.other = (await mintTestToken(db, tenant, other, { kind: 'user' })).secret;
  const parsed = parseConfig(apiConfigSchema, {
    NODE_ENV: 'test',
    DATABASE_URL: testDb.appUrl,
    REDIS_URL: testRedisUrl(),
    GATEHOUSE_KEYS: `k1:${KEY_B64}`,
    GATEHOUSE_ACTIVE_KEY_ID: 'k1',
  });
  if (!parsed.ok) throw new Error(parsed.message);
  const buffer = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  app = await createApiApp(parsed.config, {
    logger: createLogger({ name: 'definition-editor-test', level: 'info', destination: buffer }),
  });
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await app?.close();
  await admin?.end();
  await db?.close();
  await testDb?.drop();
}, TEST_DATABASE_TIMEOUT_MS);

describe('the source editor API', () => {
  let sourceId = '';

  it('gives the document with secrets as placeholders, and a save of it with one entry added keeps them', async () => {
    const created = await rest('maintainer', 'PUT', '/v1/definition-sources', {
      tier: 'project',
      workspaceId,
      document: document(),
    });
    expect(created.status).toBe(200);
    sourceId = created.body.id as string;
    const read = await rest('maintainer', 'GET', `/v1/definition-sources/${sourceId}`);
    const editable = read.body.editableDocument as { mcpServers: Record<string, Body> };
    expect(editable).toEqual(editableDocumentOf(document()));
    expect(editable.mcpServers['files']?.['env']).toEqual({ API_KEY: REDACTED, HOME_DIR: '${HOME_DIR}' });

    const added = {
      mcpServers: { ...editable.mcpServers, notes: { command: 'node', args: ['/opt/notes/index.js'] } },
    };
    const saved = await rest('maintainer', 'PUT', '/v1/definition-sources', {
      tier: 'project',
      workspaceId,
      expectedVersion: 1,
      document: added,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.version).toBe(2);
    // The stored secrets are still there: sending the full document with them is the same document.
    const same = await rest('maintainer', 'POST', '/v1/definition-sources/preview', {
      tier: 'project',
      workspaceId,
      expectedVersion: 2,
      document: document({ notes: { command: 'node', args: ['/opt/notes/index.js'] } }),
    });
    expect(same).toMatchObject({ status: 200, body: { nextVersion: null, currentVersion: 2 } });
  });

  it('an identical document (placeholders, other key order) writes no version, no event, no audit row', async () => {
    const read = await rest('maintainer', 'GET', `/v1/definition-sources/${sourceId}`);
    const editable = read.body.editableDocument as { mcpServers: Record<string, Body> };
    const reordered = { mcpServers: Object.fromEntries(Object.entries(editable.mcpServers).reverse()) };
    const before = await traces();
    for (const body of [editable, reordered]) {
      const saved = await rest('maintainer', 'PUT', '/v1/definition-sources', {
        tier: 'project',
        workspaceId,
        expectedVersion: 2,
        document: body,
      });
      expect(saved).toMatchObject({ status: 200, body: { version: 2 } });
    }
    expect(await traces()).toEqual(before);
  });

  it('previews added, changed and removed entries, the approval left stale and the requests, leaving no trace', async () => {
    // Approve `api` for the workspace (the owner decides the request the maintainer's write opened).
    const queue = await rest(
      'owner',
      'GET',
      `/v1/approval-requests?workspaceId=${workspaceId}&serverName=api`,
    );
    const request = (
      queue.body.items as { id: string; identity: { definitionFingerprint: string; key: string } }[]
    )[0];
    expect(request).toBeDefined();
    const decided = await rest('owner', 'POST', `/v1/approval-requests/${request?.id}/decision`, {
      decision: 'approve',
      seenFingerprint: request?.identity.definitionFingerprint,
      seenIdentityKey: request?.identity.key,
    });
    expect(decided.status).toBe(201);

    const read = await rest('maintainer', 'GET', `/v1/definition-sources/${sourceId}`);
    const editable = read.body.editableDocument as { mcpServers: Record<string, Body> };
    const { notes: _removed, ...kept } = editable.mcpServers;
    const next = {
      mcpServers: {
        ...kept,
        api: { ...kept['api'], url: 'https://mcp.example.com/v2/mcp', headers: { 'X-Mode': 'v2' } },
        broken: { type: 'stdio', args: 'not-a-list' },
      },
    };
    const before = await traces();
    const checkpoints = checkpointsLogged();
    const preview = await rest('maintainer', 'POST', '/v1/definition-sources/preview', {
      tier: 'project',
      workspaceId,
      expectedVersion: 2,
      document: next,
    });
    expect(preview.status).toBe(200);
    expect(await traces()).toEqual(before);
    // The dry run's audit rows were rolled back: no checkpoint of them was logged, and the chain still verifies.
    expect(checkpointsLogged()).toBe(checkpoints);
    const verified = await rest('owner', 'GET', '/v1/audit-events/verify');
    expect(verified).toMatchObject({ status: 200, body: { ok: true } });
    expect(preview.body).toMatchObject({
      currentVersion: 2,
      nextVersion: 3,
      origin: `project:${workspaceId}`,
    });
    const changes = (preview.body.entries as { name: string; change: string; state: string | null }[]).map(
      (entry) => [entry.name, entry.change, entry.state],
    );
    expect(changes).toEqual(
      expect.arrayContaining([
        ['files', 'unchanged', 'valid'],
        ['api', 'changed', 'valid'],
        ['broken', 'added', 'malformed'],
        ['notes', 'removed', null],
      ]),
    );
    const broken = (preview.body.entries as { name: string; problems: Body[] }[]).find(
      (e) => e.name === 'broken',
    );
    expect(broken?.problems.length).toBeGreaterThan(0);
    expect(preview.body.staleApprovals).toEqual([
      expect.objectContaining({ serverName: 'api', workspaceName: 'repo-editor', principalUserId: null }),
    ]);
    expect(preview.body.requests).toEqual(
      expect.arrayContaining([expect.objectContaining({ serverName: 'api', outcome: 'opened' })]),
    );
    expect(JSON.stringify(preview.body)).not.toMatch(new RegExp(`${SECRET}|${HEADER_SECRET}`));
  });

  it('refuses in the preview what the put refuses: a stale version, a placeholder that moved, another writer', async () => {
    const stale = await rest('maintainer', 'POST', '/v1/definition-sources/preview', {
      tier: 'project',
      workspaceId,
      expectedVersion: 1,
      document: document(),
    });
    expect(stale).toMatchObject({ status: 409, body: { code: 'conflict' } });
    const read = await rest('maintainer', 'GET', `/v1/definition-sources/${sourceId}`);
    const editable = read.body.editableDocument as { mcpServers: Record<string, Body> };
    const moved = await rest('maintainer', 'POST', '/v1/definition-sources/preview', {
      tier: 'project',
      workspaceId,
      expectedVersion: 2,
      document: {
        mcpServers: {
          ...editable.mcpServers,
          api: { ...editable.mcpServers['api'], url: 'https://evil.example.com/mcp' },
        },
      },
    });
    expect(moved).toMatchObject({ status: 400, body: { code: 'validation_failed' } });
    expect(JSON.stringify(moved.body)).toContain('document.mcpServers.api');
    const notWriter = await rest('other', 'POST', '/v1/definition-sources/preview', {
      tier: 'project',
      workspaceId,
      document: document(),
    });
    expect(notWriter.status).toBe(403);
  });

  it('lists versions newest first and diffs two of them as projections', async () => {
    const read = await rest('maintainer', 'GET', `/v1/definition-sources/${sourceId}`);
    const editable = read.body.editableDocument as { mcpServers: Record<string, Body> };
    const { notes: _gone, ...rest3 } = editable.mcpServers;
    const third = await rest('maintainer', 'PUT', '/v1/definition-sources', {
      tier: 'project',
      workspaceId,
      expectedVersion: 2,
      document: { mcpServers: { ...rest3, files: { ...rest3['files'], env: { API_KEY: 'rotated-value' } } } },
    });
    expect(third).toMatchObject({ status: 200, body: { version: 3 } });

    const versions = await rest('maintainer', 'GET', `/v1/definition-sources/${sourceId}/versions`);
    expect(versions.status).toBe(200);
    expect(
      (versions.body.items as { version: number; entries: number }[]).map((v) => [v.version, v.entries]),
    ).toEqual([
      [3, 2],
      [2, 3],
      [1, 2],
    ]);
    const diff = await rest('maintainer', 'GET', `/v1/definition-sources/${sourceId}/versions/3`);
    expect(diff.status).toBe(200);
    expect(diff.body).toMatchObject({ version: 3, against: 2 });
    const changes = (diff.body.changes as { name: string; change: string }[]).map((c) => [c.name, c.change]);
    // A changed env VALUE is a change (compared on the stored documents), shown only as projections.
    expect(changes).toEqual(
      expect.arrayContaining([
        ['files', 'changed'],
        ['api', 'unchanged'],
        ['notes', 'removed'],
      ]),
    );
    const against1 = await rest(
      'maintainer',
      'GET',
      `/v1/definition-sources/${sourceId}/versions/3?against=1`,
    );
    expect(against1).toMatchObject({ status: 200, body: { against: 1 } });
    const missing = await rest('maintainer', 'GET', `/v1/definition-sources/${sourceId}/versions/9`);
    expect(missing).toMatchObject({ status: 404, body: { code: 'not_found' } });
  });

  it('never answered a stored secret', () => {
    for (const body of bodies) {
      expect(body).not.toContain(SECRET);
      expect(body).not.toContain(HEADER_SECRET);
      expect(body).not.toContain('rotated-value');
    }
  });
});
