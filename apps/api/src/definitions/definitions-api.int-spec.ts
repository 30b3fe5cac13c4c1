import { randomBytes, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { EnvelopeCipher, KeyRing } from '@gatehouse/crypto';
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
import { createMember, mintTestToken } from '../commands/testing/surfaces-harness';
import { apiConfigSchema } from '../config/api.config';
import { createApiApp } from '../create-api-app';
import { DefinitionCipher } from '../effective-view/definition-cipher';

// Server definitions through the real API (createApiApp: REST, GraphQL and admin MCP, real Postgres and Redis),
// with a canary secret that must never come back out: not in a response, a GraphQL result, an admin MCP tool
// result, a log line, an audit row or any plaintext column.

jest.setTimeout(120_000);

const CANARY_LITERAL = `cnrylit${randomBytes(9).toString('hex')}`;
const CANARY_VARIABLE = `cnryvar${randomBytes(9).toString('hex')}`;
const CANARIES = [CANARY_LITERAL, CANARY_VARIABLE];
const KEY_B64 = randomBytes(32).toString('base64');

/** Shaped like the `.mcp.json` examples people have: http with headers, stdio with env and a `${VAR:-default}`. */
function projectDocument(apiKey: string) {
  return {
    mcpServers: {
      github: {
        type: 'http',
        url: 'https://api.githubcopilot.com/mcp/',
        headers: { Authorization: 'Bearer ${GITHUB_TOKEN}' },
      },
      filesystem: {
        type: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '${WORKSPACE_DIR:-/srv/repo}'],
        env: { API_KEY: apiKey, NODE_OPTIONS: '--max-old-space-size=512' },
      },
      sentry: { type: 'streamable-http', url: 'https://mcp.sentry.dev/mcp' },
      legacy: { type: 'sse', url: 'https://legacy.example.test/sse' },
    },
  };
}

const USER_MCP_JSON = `{
  "mcpServers": {
    "notes": {
      "command": "node",
      "args": ["/opt/notes-mcp/index.js", "--vault", "\${NOTES_VAULT:-/home/me/notes}"],
      "env": { "NOTES_TOKEN": "\${NOTES_TOKEN:-dev-default}" }
    }
  }
}
`;

let testDb: TestDatabase;
let db: Database;
let app: NestFastifyApplication;
let tenant: TestTenant;
let workspaceId: string;
const logLines: string[] = [];
const bodies: string[] = [];
const tokens: Record<'owner' | 'maintainer' | 'alice' | 'bob', string> = {
  owner: '',
  maintainer: '',
  alice: '',
  bob: '',
};
const users: Partial<Record<keyof typeof tokens, TestUser>> = {};

type Who = keyof typeof tokens;

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
  return {
    status: response.statusCode,
    body: JSON.parse(response.body || 'null') as Record<string, unknown>,
  };
}

async function graphql(who: Who, query: string) {
  const response = await app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { authorization: `Bearer ${tokens[who]}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ query }),
  });
  bodies.push(response.body);
  return JSON.parse(response.body) as {
    data?: Record<string, unknown>;
    errors?: { extensions?: { code?: string } }[];
  };
}

/** A tools/call over admin MCP (stateless JSON-RPC), its body kept for the canary like every REST answer. */
async function mcpTool(who: Who, name: string, args: Record<string, unknown>) {
  const response = await app.inject({
    method: 'POST',
    url: '/mcp/admin',
    headers: {
      authorization: `Bearer ${tokens[who]}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    payload: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name, arguments: args },
    }),
  });
  bodies.push(response.body);
  return (
    JSON.parse(response.body) as { result: { isError?: boolean; structuredContent: Record<string, unknown> } }
  ).result;
}

type Entry = {
  name: string;
  status: string;
  reason: string | null;
  source: { tier: string; origin: string };
  shadowed: { source: { tier: string; origin: string } }[];
  fingerprint: string | null;
  identity: { key: string } | null;
  projection: {
    transport: { kind: string; args?: string[]; url?: string; env?: unknown; headers?: unknown };
  } | null;
};

function entriesOf(body: Record<string, unknown>): Map<string, Entry> {
  return new Map((body.entries as Entry[]).map((entry) => [entry.name, entry]));
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 3 });
  tenant = await createTestTenant(db);
  const owner = await createMember(db, tenant, 'owner');
  const maintainer = await createMember(db, tenant, 'member');
  const alice = await createMember(db, tenant, 'member');
  const bob = await createMember(db, tenant, 'member');
  Object.assign(users, { owner, maintainer, alice, bob });
  workspaceId = randomUUID();
  await db.withTenant(tenant.id, async (tx) => {
    await tx.workspace.create({ data: { id: workspaceId, tenantId: tenant.id, name: 'repo-one' } });
    await tx.workspaceMember.create({ data: { tenantId: tenant.id, workspaceId, userId: maintainer.id } });
  });
  for (const [who, user] of [
    ['owner', owner],
    ['maintainer', maintainer],
    ['alice', alice],
    ['bob', bob],
  ] as const) {
    tokens[who] = (await mintTestToken(db, tenant, user, { kind: 'user' })).secret;
  }
  const parsed = parseConfig(apiConfigSchema, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'debug',
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
    logger: createLogger({ name: 'definitions-test', level: 'debug', destination: buffer }),
  });
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await app?.close();
  await db?.close();
  await testDb?.drop();
}, TEST_DATABASE_TIMEOUT_MS);

describe('server definitions through the API', () => {
  let projectSourceId = '';
  let userSourceId = '';

  it('stores a project source (maintainer), a variable and a user import, and resolves the effective view', async () => {
    const put = await rest('maintainer', 'PUT', '/v1/definition-sources', {
      tier: 'project',
      workspaceId,
      document: projectDocument(CANARY_LITERAL),
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ tier: 'project', origin: `project:${workspaceId}`, version: 1 });
    projectSourceId = put.body.id as string;
    const states = (put.body.entries as { name: string; state: string }[]).map((e) => [e.name, e.state]);
    expect(states).toEqual(
      expect.arrayContaining([
        ['github', 'valid'],
        ['filesystem', 'valid'],
        ['sentry', 'valid'],
        ['legacy', 'rejected'],
      ]),
    );

    const variable = await rest('maintainer', 'PUT', '/v1/definition-variables/GITHUB_TOKEN', {
      scope: 'workspace',
      workspaceId,
      value: CANARY_VARIABLE,
    });
    expect(variable.status).toBe(200);
    expect(variable.body).toMatchObject({ name: 'GITHUB_TOKEN', set: true, scope: 'workspace' });
    expect(JSON.stringify(variable.body)).not.toContain('value');

    const imported = await rest('alice', 'POST', '/v1/definition-sources/import', {
      tier: 'user',
      content: USER_MCP_JSON,
    });
    expect(imported.status).toBe(200);
    userSourceId = imported.body.id as string;

    const view = await rest('alice', 'GET', `/v1/workspaces/${workspaceId}/effective-definitions`);
    expect(view.status).toBe(200);
    expect(view.body.view).toBe('principal');
    const entries = entriesOf(view.body);
    const github = entries.get('github');
    expect(github).toMatchObject({ status: 'resolved', source: { tier: 'project' } });
    expect(github?.fingerprint).toMatch(/\S{16,}/);
    expect(github?.identity?.key).toMatch(/^sid:/);
    expect(github?.projection?.transport).toMatchObject({
      kind: 'http',
      headers: { state: 'redacted', keys: ['Authorization'] },
    });
    const filesystem = entries.get('filesystem');
    expect(filesystem?.status).toBe('resolved');
    expect(filesystem?.projection?.transport.args).toContain('/srv/repo');
    expect(filesystem?.projection?.transport.env).toEqual({
      state: 'redacted',
      keys: ['API_KEY', 'NODE_OPTIONS'],
    });
    expect(entries.get('sentry')?.status).toBe('resolved');
    expect(entries.get('legacy')).toMatchObject({ status: 'rejected', reason: 'unsupported_transport' });
    expect(entries.get('notes')).toMatchObject({
      status: 'resolved',
      source: { tier: 'user', origin: `user:${users.alice?.id}` },
    });

    // The same view over GraphQL, for the workspace alone: alice's user source takes no part in it.
    const gql = await graphql(
      'alice',
      `query { effectiveDefinitions(input: { workspaceId: "${workspaceId}", view: "workspace" }) {
         view entries { name status reason fingerprint identity projection source { tier origin } } problems } }`,
    );
    expect(gql.errors).toBeUndefined();
    const gqlView = gql.data?.effectiveDefinitions as Record<string, unknown>;
    expect(gqlView.view).toBe('workspace');
    const gqlEntries = entriesOf(gqlView);
    expect([...gqlEntries.keys()].sort()).toEqual(['filesystem', 'github', 'legacy', 'sentry']);
    expect(gqlEntries.get('github')?.fingerprint).toBe(github?.fingerprint);
  });

  it("keeps a user from reading or writing another user's user/local sources and variables", async () => {
    expect((await rest('bob', 'GET', `/v1/definition-sources/${userSourceId}`)).status).toBe(404);
    expect((await rest('owner', 'GET', `/v1/definition-sources/${userSourceId}`)).status).toBe(404);
    expect((await rest('bob', 'DELETE', `/v1/definition-sources/${userSourceId}`)).status).toBe(404);
    expect((await rest('alice', 'GET', `/v1/definition-sources/${userSourceId}`)).status).toBe(200);
    const list = await rest('bob', 'GET', '/v1/definition-sources');
    expect(JSON.stringify(list.body)).not.toContain(userSourceId);
    const bobView = entriesOf(
      (await rest('bob', 'GET', `/v1/workspaces/${workspaceId}/effective-definitions`)).body,
    );
    expect(bobView.has('notes')).toBe(false);

    // User variables are always the caller's own: alice's stays hers, bob's write lands in his own scope.
    expect(
      (
        await rest('alice', 'PUT', '/v1/definition-variables/NOTES_VAULT', {
          scope: 'user',
          value: '/data/alice',
        })
      ).status,
    ).toBe(200);
    const bobVars = await rest('bob', 'GET', '/v1/definition-variables?scope=user');
    expect(bobVars.body.items).toEqual([]);
    expect((await rest('bob', 'DELETE', '/v1/definition-variables/NOTES_VAULT?scope=user')).status).toBe(200);
    const aliceVars = await rest('alice', 'GET', '/v1/definition-variables?scope=user');
    expect((aliceVars.body.items as { name: string; set: boolean }[]).map((v) => [v.name, v.set])).toEqual([
      ['NOTES_VAULT', true],
    ]);
    // A local source is the caller's own too: bob's import makes his, never alice's.
    const bobLocal = await rest('bob', 'POST', '/v1/definition-sources/import', {
      tier: 'local',
      workspaceId,
      content: USER_MCP_JSON,
    });
    expect(bobLocal.body.origin).toBe(`local:${workspaceId}:${users.bob?.id}`);
    expect((await rest('alice', 'GET', `/v1/definition-sources/${bobLocal.body.id as string}`)).status).toBe(
      404,
    );
  });

  it('enforces who writes each tier', async () => {
    const managed = { tier: 'managed', name: 'org-policy', document: { mcpServers: {} } };
    expect((await rest('bob', 'PUT', '/v1/definition-sources', managed)).status).toBe(403);
    expect((await rest('maintainer', 'PUT', '/v1/definition-sources', managed)).status).toBe(403);
    expect((await rest('owner', 'PUT', '/v1/definition-sources', managed)).status).toBe(200);
    const plugin = { tier: 'plugin', name: 'acme-plugin', document: { mcpServers: {} } };
    expect((await rest('alice', 'PUT', '/v1/definition-sources', plugin)).status).toBe(403);
    expect((await rest('owner', 'PUT', '/v1/definition-sources', plugin)).status).toBe(200);
    const project = { tier: 'project', workspaceId, document: { mcpServers: {} }, expectedVersion: 1 };
    expect((await rest('bob', 'PUT', '/v1/definition-sources', project)).status).toBe(403);
    expect(
      (await rest('bob', 'PUT', '/v1/definition-variables/X_SETTING', { scope: 'tenant', value: 'v' }))
        .status,
    ).toBe(403);
    expect(
      (
        await rest('bob', 'PUT', '/v1/definition-variables/X_SETTING', {
          scope: 'workspace',
          workspaceId,
          value: 'v',
        })
      ).status,
    ).toBe(403);
  });

  it('refuses a stale or missing version with 409, and keeps stored values sent back as their placeholder', async () => {
    const base = { tier: 'project', workspaceId };
    expect(
      (await rest('maintainer', 'PUT', '/v1/definition-sources', { ...base, document: projectDocument('x') }))
        .status,
    ).toBe(409);
    const kept = await rest('owner', 'PUT', '/v1/definition-sources', {
      ...base,
      expectedVersion: 1,
      document: projectDocument('[REDACTED]'),
    });
    expect(kept.status).toBe(200);
    // The placeholder restores the stored literal: the document is the stored one, so nothing is written
    // (decision 0085) and the source stays at version 1.
    expect(kept.body.version).toBe(1);
    const stale = await rest('maintainer', 'PUT', '/v1/definition-sources', {
      ...base,
      expectedVersion: 2,
      document: projectDocument('other'),
    });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('conflict');
    const mismatched = await rest('maintainer', 'PUT', '/v1/definition-sources', {
      ...base,
      expectedVersion: 1,
      document: projectDocument('prefix-[REDACTED]'),
    });
    expect(mismatched.status).toBe(400);

    // The stored document still holds the literal the placeholder stood for.
    const admin = new Client({ connectionString: testDb.adminUrl });
    await admin.connect();
    try {
      const row = await admin.query<{ id: string; tenant_id: string; document_ct: Buffer }>(
        'SELECT id, tenant_id, document_ct FROM definition_sources WHERE id = $1',
        [projectSourceId],
      );
      const ring = KeyRing.parse({ keys: `k1:${KEY_B64}`, activeKeyId: 'k1' });
      if (!ring.ok) throw new Error('ring');
      const cipher = new DefinitionCipher(new EnvelopeCipher(ring.keyRing));
      const stored = row.rows[0];
      if (stored === undefined) throw new Error('no row');
      const text = cipher.openDocument({ id: stored.id, tenantId: stored.tenant_id }, stored.document_ct);
      expect(text).toContain(CANARY_LITERAL);
    } finally {
      await admin.end();
    }
  });

  it('disables a listed server by overlay, refuses an unknown one, and clearing gives the entry back', async () => {
    const url = `/v1/workspaces/${workspaceId}/disabled-servers`;
    const before = entriesOf(
      (await rest('alice', 'GET', `/v1/workspaces/${workspaceId}/effective-definitions`)).body,
    );
    expect((await rest('maintainer', 'PUT', `${url}/nope`, { scope: 'workspace' })).status).toBe(400);
    expect((await rest('bob', 'PUT', `${url}/github`, { scope: 'workspace' })).status).toBe(403);
    expect(
      (await rest('maintainer', 'PUT', `${url}/github`, { scope: 'workspace', reason: 'rotating' })).status,
    ).toBe(200);
    const disabled = entriesOf(
      (await rest('alice', 'GET', `/v1/workspaces/${workspaceId}/effective-definitions`)).body,
    );
    expect(disabled.get('github')).toMatchObject({ status: 'disabled', reason: 'disabled_by_workspace' });
    expect((await rest('maintainer', 'DELETE', `${url}/github?scope=workspace`)).status).toBe(200);
    const after = entriesOf(
      (await rest('alice', 'GET', `/v1/workspaces/${workspaceId}/effective-definitions`)).body,
    );
    expect(after.get('github')).toEqual(before.get('github'));
  });

  it('serves the same sources over admin MCP: the definition tools answer, their results join the canary', async () => {
    const calls: [Who, string, Record<string, unknown>][] = [
      ['maintainer', 'command_definitions_sources_get', { sourceId: projectSourceId }],
      ['maintainer', 'command_definitions_sources_list', { workspaceId }],
      ['maintainer', 'command_definitions_sources_versions', { sourceId: projectSourceId }],
      ['maintainer', 'command_definitions_sources_version', { sourceId: projectSourceId, version: 1 }],
      ['maintainer', 'command_definitions_variables_list', { scope: 'workspace', workspaceId }],
      ['alice', 'command_definitions_effective', { workspaceId }],
      ['owner', 'command_definitions_effective', { workspaceId, view: 'workspace' }],
      ['owner', 'command_audit_list', { limit: 200 }],
    ];
    for (const [who, name, args] of calls) {
      const result = await mcpTool(who, name, args);
      expect({ name, isError: result.isError ?? false }).toEqual({ name, isError: false });
    }
    const effective = await mcpTool('alice', 'command_definitions_effective', { workspaceId });
    const filesystem = entriesOf(effective.structuredContent).get('filesystem');
    expect(filesystem?.projection?.transport.env).toEqual({
      state: 'redacted',
      keys: ['API_KEY', 'NODE_OPTIONS'],
    });
  });

  it('never lets the canary out: responses, GraphQL, logs, audit rows, plaintext columns', async () => {
    const gqlSource = await graphql(
      'owner',
      `query { definitionSource(input: { sourceId: "${projectSourceId}" }) { id entries problems } }`,
    );
    expect(gqlSource.errors).toBeUndefined();
    expect(bodies.length).toBeGreaterThan(20);
    expect(logLines.length).toBeGreaterThan(0);
    for (const canary of CANARIES) {
      for (const body of bodies) expect(body).not.toContain(canary);
      for (const line of logLines) expect(line).not.toContain(canary);
    }

    const admin = new Client({ connectionString: testDb.adminUrl });
    await admin.connect();
    try {
      const audit = await admin.query<{ n: string }>(
        "SELECT count(*) AS n FROM audit_events WHERE action LIKE 'definitions.%'",
      );
      expect(Number(audit.rows[0]?.n)).toBeGreaterThan(5);
      const columns = await admin.query<{ table_name: string; column_name: string; data_type: string }>(
        `SELECT table_name, column_name, data_type FROM information_schema.columns
          WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'jsonb', 'json', 'ARRAY', 'bytea')`,
      );
      expect(columns.rows.some((c) => c.table_name === 'definition_sources')).toBe(true);
      for (const column of columns.rows) {
        const cell = `"${column.column_name}"`;
        const predicate =
          column.data_type === 'bytea'
            ? `position(convert_to($1, 'UTF8') in ${cell}) > 0`
            : `${cell}::text LIKE '%' || $1 || '%'`;
        for (const canary of CANARIES) {
          const hit = await admin.query<{ n: string }>(
            `SELECT count(*) AS n FROM "${column.table_name}" WHERE ${predicate}`,
            [canary],
          );
          expect({
            column: `${column.table_name}.${column.column_name}`,
            hits: Number(hit.rows[0]?.n),
          }).toEqual({
            column: `${column.table_name}.${column.column_name}`,
            hits: 0,
          });
        }
      }
    } finally {
      await admin.end();
    }
  });
});
