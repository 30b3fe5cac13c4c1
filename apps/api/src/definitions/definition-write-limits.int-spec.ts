import { randomBytes } from 'node:crypto';
import { createDatabase, type Database } from '@gatehouse/db';
import { createLogger, parseConfig } from '@gatehouse/platform';
import {
  createTestDatabase,
  createTestTenant,
  testRedisUrl,
  TEST_DATABASE_TIMEOUT_MS,
  type TestDatabase,
} from '@gatehouse/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Writable } from 'node:stream';
import { createMember, mintTestToken } from '../commands/testing/surfaces-harness';
import { apiConfigSchema } from '../config/api.config';
import { createApiApp } from '../create-api-app';

// Hostile documents on the write path (PUT, import, the GraphQL mutation): each is a 4xx with a code, never a 500,
// and nothing of it is stored.

jest.setTimeout(120_000);

const DEPTH = 5_000;

/** A document whose one entry nests DEPTH levels under an env value: written as text (no recursive stringify). */
function deepDocumentText(): string {
  return `{"mcpServers":{"deep":{"command":"node","env":{"X":${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}}}}}`;
}

let testDb: TestDatabase;
let db: Database;
let app: NestFastifyApplication;
let token = '';

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 3 });
  const tenant = await createTestTenant(db);
  const owner = await createMember(db, tenant, 'owner');
  token = (await mintTestToken(db, tenant, owner, { kind: 'user' })).secret;
  const parsed = parseConfig(apiConfigSchema, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL: testDb.appUrl,
    REDIS_URL: testRedisUrl(),
    GATEHOUSE_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    GATEHOUSE_ACTIVE_KEY_ID: 'k1',
  });
  if (!parsed.ok) throw new Error(parsed.message);
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  app = await createApiApp(parsed.config, {
    logger: createLogger({ name: 'definition-write-limits-test', level: 'warn', destination: sink }),
  });
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await app?.close();
  await db?.close();
  await testDb?.drop();
}, TEST_DATABASE_TIMEOUT_MS);

async function send(method: 'PUT' | 'POST', url: string, payload: string) {
  const response = await app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    payload,
  });
  return { status: response.statusCode, body: JSON.parse(response.body) as Record<string, unknown> };
}

async function sourceCount(): Promise<number> {
  const response = await app.inject({
    method: 'GET',
    url: '/v1/definition-sources',
    headers: { authorization: `Bearer ${token}` },
  });
  return (JSON.parse(response.body) as { items: unknown[] }).items.length;
}

describe('hostile documents on the write path', () => {
  it('answers a document nested 5,000 levels with 400 and a code: PUT, import and the GraphQL mutation', async () => {
    const text = deepDocumentText();
    const put = await send('PUT', '/v1/definition-sources', `{"tier":"user","document":${text}}`);
    expect(put.status).toBe(400);
    expect(put.body).toMatchObject({ code: 'validation_failed' });
    expect(JSON.stringify(put.body.errors)).toContain('document_too_deep');

    const imported = await send(
      'POST',
      '/v1/definition-sources/import',
      JSON.stringify({ tier: 'user', content: text }),
    );
    expect(imported.status).toBe(400);
    expect(imported.body).toMatchObject({ code: 'validation_failed' });
    expect(JSON.stringify(imported.body.errors)).toContain('document_too_deep');

    const gql = await send(
      'POST',
      '/graphql',
      `{"query":"mutation ($input: PutDefinitionSourceInput!) { putDefinitionSource(input: $input) { id } }",` +
        `"variables":{"input":{"tier":"user","document":${text}}}}`,
    );
    expect(gql.status).toBeLessThan(500);
    const errors = gql.body.errors as { extensions?: { code?: string } }[];
    expect(errors.map((e) => e.extensions?.code)).toEqual(['validation_failed']);
    expect(await sourceCount()).toBe(0);
  });

  it('refuses an import whose text repeats a key, naming the path', async () => {
    const content = '{"mcpServers":{"a":{"command":"echo","command":"rm"}}}';
    const imported = await send(
      'POST',
      '/v1/definition-sources/import',
      JSON.stringify({ tier: 'user', content }),
    );
    expect(imported.status).toBe(400);
    expect(imported.body).toMatchObject({ code: 'validation_failed' });
    expect(imported.body.errors).toEqual([
      { path: 'document.mcpServers.a.command', message: expect.stringContaining('duplicate_key') },
    ]);
    const twice = '{"mcpServers":{"a":{"command":"echo"}},"mcpServers":{"b":{"command":"rm"}}}';
    const second = await send(
      'POST',
      '/v1/definition-sources/import',
      JSON.stringify({ tier: 'user', content: twice }),
    );
    expect(second.status).toBe(400);
    expect(second.body.errors).toEqual([
      { path: 'document.mcpServers', message: expect.stringContaining('duplicate_key') },
    ]);
    expect(await sourceCount()).toBe(0);
  });
});
