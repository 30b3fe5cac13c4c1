import { randomBytes } from 'node:crypto';
import { createDatabase, type Database } from '@gatehouse/db';
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
import { ADMIN_MCP_PATH } from '../mcp-admin/admin-mcp-route';

// A write that cannot get a database connection in time (Prisma's P2028, "Unable to start a transaction in the
// given time": what an overloaded machine produced in the command-surfaces set-up) is a dependency momentarily
// unavailable, not a fault of ours: 503 `dependency_unavailable` with Retry-After on REST, GraphQL and admin MCP
// alike, a warn line and no error with a stack, and nothing written. Provoked for real: the API runs on a
// one-connection pool, and a first write holds that connection while it waits for a row lock this test holds.

jest.setTimeout(120_000);

const KEY_B64 = randomBytes(32).toString('base64');

let testDb: TestDatabase;
let seedDb: Database;
let app: NestFastifyApplication;
let tenant: TestTenant;
let owner = '';
const logLines: string[] = [];

type Reply = { status: number; headers: Record<string, unknown>; body: Record<string, unknown> };

async function send(
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const response = await app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${owner}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    payload: JSON.stringify(payload),
  });
  return {
    status: response.statusCode,
    headers: response.headers,
    body: JSON.parse(response.body || 'null') as Record<string, unknown>,
  };
}

const document = (name: string, url = 'https://mcp.example.test/mcp') => ({
  mcpServers: { [name]: { type: 'http', url } },
});

function putRest(name: string, expectedVersion?: number): Promise<Reply> {
  return send('PUT', '/v1/definition-sources', {
    tier: 'managed',
    name,
    // A replacement changes the document: an equal one would be answered without writing (no UPDATE).
    document: document(name, expectedVersion === undefined ? undefined : 'https://mcp.example.test/v2'),
    ...(expectedVersion !== undefined ? { expectedVersion } : {}),
  });
}

function putGraphql(name: string): Promise<Reply> {
  return send('POST', '/graphql', {
    query: 'mutation ($input: PutDefinitionSourceInput!) { putDefinitionSource(input: $input) { id } }',
    variables: { input: { tier: 'managed', name, document: document(name) } },
  });
}

function putMcp(name: string): Promise<Reply> {
  return send('POST', ADMIN_MCP_PATH, {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name: 'command_definitions_sources_put',
      arguments: { tier: 'managed', name, document: document(name) },
    },
  });
}

/** The same tools/call as a 2026-07-28 request: its envelope and standard headers, no session. */
function putMcp2026(name: string): Promise<Reply> {
  const tool = 'command_definitions_sources_put';
  return send(
    'POST',
    ADMIN_MCP_PATH,
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: tool,
        arguments: { tier: 'managed', name, document: document(name) },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/clientInfo': { name: 'database-unavailable', version: '0' },
        },
      },
    },
    { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': tool },
  );
}

async function adminClient(): Promise<Client> {
  const client = new Client({ connectionString: testDb.adminUrl });
  await client.connect();
  return client;
}

/** Resolves once some backend of the test database waits for a lock (the held write, at its UPDATE). */
async function untilSomeoneWaitsForALock(admin: Client): Promise<void> {
  for (;;) {
    const waiting = await admin.query<{ n: string }>(
      `SELECT count(*) AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
    );
    if (Number(waiting.rows[0]?.n) > 0) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  seedDb = createDatabase({ url: testDb.appUrl, poolMax: 2 });
  tenant = await createTestTenant(seedDb);
  const user = await createMember(seedDb, tenant, 'owner');
  owner = (await mintTestToken(seedDb, tenant, user, { kind: 'user' })).secret;
  const parsed = parseConfig(apiConfigSchema, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL: testDb.appUrl,
    REDIS_URL: testRedisUrl(),
    GATEHOUSE_KEYS: `k1:${KEY_B64}`,
    GATEHOUSE_ACTIVE_KEY_ID: 'k1',
  });
  if (!parsed.ok) throw new Error(parsed.message);
  app = await createApiApp(parsed.config, {
    logger: createLogger({
      name: 'database-unavailable',
      level: 'warn',
      destination: { write: (line: string) => void logLines.push(line) },
    }),
    databasePoolMax: 1,
  });
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await app?.close();
  await seedDb?.close();
  await testDb?.drop();
}, TEST_DATABASE_TIMEOUT_MS);

describe('a write that cannot get a database connection in time', () => {
  it('answers 503 dependency_unavailable with Retry-After on REST, GraphQL and admin MCP (both eras), writes nothing, and logs a warn line', async () => {
    const held = `held-${randomBytes(3).toString('hex')}`;
    const created = await putRest(held);
    expect(created.status).toBe(200);
    const names = ['rest', 'graphql', 'mcp', 'mcp2026'].map(
      (s) => `refused-${s}-${randomBytes(3).toString('hex')}`,
    );

    const admin = await adminClient();
    let blocked: Promise<Reply> | undefined;
    try {
      await admin.query('BEGIN');
      await admin.query('SELECT id FROM definition_sources WHERE id = $1 FOR UPDATE', [created.body.id]);
      // Takes the API's one connection and keeps it, waiting for the row this test holds.
      blocked = putRest(held, created.body.version as number);
      await untilSomeoneWaitsForALock(admin);
      const [rest, graphql, mcp, mcp2026] = await Promise.all([
        putRest(names[0] as string),
        putGraphql(names[1] as string),
        putMcp(names[2] as string),
        putMcp2026(names[3] as string),
      ]);

      expect(rest).toMatchObject({
        status: 503,
        headers: { 'content-type': expect.stringContaining('application/problem+json') },
        body: { status: 503, code: 'dependency_unavailable' },
      });
      expect(Number(rest.headers['retry-after'])).toBeGreaterThanOrEqual(1);

      expect(graphql.status).toBe(503);
      expect(graphql.body).toMatchObject({
        data: null,
        errors: [{ extensions: { code: 'dependency_unavailable', status: 503 } }],
      });
      expect(Number(graphql.headers['retry-after'])).toBeGreaterThanOrEqual(1);

      // Over MCP a refusal is a tool result (HTTP 200) carrying REST's problem document.
      expect(mcp.status).toBe(200);
      expect(mcp.body).toMatchObject({
        result: { isError: true, structuredContent: { status: 503, code: 'dependency_unavailable' } },
      });
      expect(Number(mcp.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // A 2026-07-28 client is told the same, in its revision's result.
      expect(mcp2026.status).toBe(200);
      expect(mcp2026.body).toMatchObject({
        result: {
          resultType: 'complete',
          isError: true,
          structuredContent: { status: 503, code: 'dependency_unavailable' },
        },
      });
      expect(Number(mcp2026.headers['retry-after'])).toBeGreaterThanOrEqual(1);

      for (const reply of [rest, graphql, mcp, mcp2026])
        expect(JSON.stringify(reply.body)).not.toMatch(/P2028|Prisma/);
    } finally {
      await admin.query('ROLLBACK').catch(() => undefined);
      await admin.end();
    }
    // The held write goes on once the lock is gone; the refused ones wrote nothing.
    expect((await blocked)?.status).toBe(200);
    const check = await adminClient();
    try {
      const rows = await check.query<{ n: string }>(
        'SELECT count(*) AS n FROM definition_sources WHERE origin = ANY($1)',
        [names.map((name) => `managed:${name}`)],
      );
      expect(Number(rows.rows[0]?.n)).toBe(0);
    } finally {
      await check.end();
    }
    // Retried after Retry-After, the same write succeeds.
    expect((await putRest(names[0] as string)).status).toBe(200);

    // One warn line per refused request, naming Prisma's code; no error line, no stack anywhere.
    const entries = logLines.map(
      (line) => JSON.parse(line) as { level: string; msg: string; cause?: string },
    );
    expect(entries.filter((entry) => entry.level === 'error' || entry.level === 'fatal')).toEqual([]);
    expect(entries.filter((entry) => entry.msg === 'dependency unavailable')).toEqual([
      expect.objectContaining({ level: 'warn', cause: 'P2028' }),
      expect.objectContaining({ level: 'warn', cause: 'P2028' }),
      expect.objectContaining({ level: 'warn', cause: 'P2028' }),
      expect.objectContaining({ level: 'warn', cause: 'P2028' }),
    ]);
    expect(logLines.join('\n')).not.toMatch(/"err"|"stack"/);
  });
});
