import { randomUUID } from 'node:crypto';
import { COMMANDS, defineCommand } from '@gatehouse/commands';
import { createLogger, installProblemJsonHandlers } from '@gatehouse/platform';
import {
  createTestWorkspace,
  TEST_DATABASE_TIMEOUT_MS,
  type TestTenant,
  type TestUser,
} from '@gatehouse/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { getIntrospectionQuery } from 'graphql';
import { z } from 'zod';
import { CSRF_HEADER } from '../auth/csrf.guard';
import { DEFAULT_WORKER_POOLS } from '../auth/pool-config';
import type { TenantPrincipal } from '../auth/principal';
import { registerGraphQL } from '../graphql/register-graphql';
import { encodeCursor } from '../shared/pagination/keyset-cursor';
import { registerCommandRoutes } from '../admin-surfaces/rest/register-command-routes';
import {
  TEST_PASSWORD,
  bearer,
  createMember,
  createSurfacesHarness,
  createTestTenant,
  mintTestToken,
  type SurfacesHarness,
} from './testing/surfaces-harness';

// The HTTP edges of the generated surfaces: every malformed request is a 4xx problem (never a 500), nothing
// the client sent is echoed, nothing undeclared is answered, secrets are not cached, CSRF holds for cookie
// sessions on REST and on POST /graphql, and the OpenAPI document lists every command.

jest.setTimeout(60_000);

let h: SurfacesHarness;
let acme: TestTenant;
let owner: TestUser;
let ownerToken: string;
let workspaceId: string;

beforeAll(async () => {
  h = await createSurfacesHarness();
  acme = await createTestTenant(h.db, { slug: `acme-${randomUUID().slice(0, 6)}` });
  owner = await createMember(h.db, acme, 'owner');
  ownerToken = (await mintTestToken(h.db, acme, owner, { kind: 'user' })).secret;
  workspaceId = (await createTestWorkspace(h.db, acme.id)).id;
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await h?.close();
}, TEST_DATABASE_TIMEOUT_MS);

const PROBLEM = /^application\/problem\+json/;
const SECRET_LOOKING = 'ghu_ThisLooksLikeASecretValue0123456789abcdefgh';

function json(body: string): Record<string, unknown> {
  return JSON.parse(body) as Record<string, unknown>;
}

describe('malformed requests are 4xx problem+json', () => {
  it('malformed JSON → 400 malformed_json', async () => {
    const response = await h.app.inject({
      method: 'POST',
      url: '/v1/workspaces',
      headers: { ...bearer(ownerToken), 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(PROBLEM);
    expect(json(response.body)).toMatchObject({
      type: 'urn:gatehouse:problem:malformed_json',
      status: 400,
      code: 'malformed_json',
    });
  });

  it('a body over 1 MiB → 413 payload_too_large (REST and GraphQL)', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024) });
    const rest = await h.app.inject({
      method: 'POST',
      url: '/v1/workspaces',
      headers: { ...bearer(ownerToken), 'content-type': 'application/json' },
      payload: big,
    });
    expect(rest.statusCode).toBe(413);
    expect(rest.headers['content-type']).toMatch(PROBLEM);
    expect(json(rest.body)).toMatchObject({ code: 'payload_too_large', status: 413 });

    const graphql = await h.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { ...bearer(ownerToken), 'content-type': 'application/json' },
      payload: JSON.stringify({ query: `{ me { tenantId } }`, padding: 'x'.repeat(1024 * 1024) }),
    });
    expect(graphql.statusCode).toBe(413);
    expect(json(graphql.body)).toMatchObject({
      errors: [{ extensions: { code: 'payload_too_large', status: 413 } }],
    });
  });

  it('a non-JSON content type → 415 unsupported_media_type (REST and GraphQL)', async () => {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded']) {
      const rest = await h.app.inject({
        method: 'POST',
        url: '/v1/workspaces',
        headers: { ...bearer(ownerToken), 'content-type': contentType },
        payload: 'name=x',
      });
      expect(rest.statusCode).toBe(415);
      expect(rest.headers['content-type']).toMatch(PROBLEM);
      expect(json(rest.body)).toMatchObject({ code: 'unsupported_media_type' });
    }
    const graphql = await h.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { ...bearer(ownerToken), 'content-type': 'text/plain' },
      payload: '{ me { tenantId } }',
    });
    expect(graphql.statusCode).toBe(415);
    expect(json(graphql.body)).toMatchObject({
      errors: [{ extensions: { code: 'unsupported_media_type' } }],
    });
  });

  it('unknown fields and wrong types → 400 validation_failed naming paths, never values', async () => {
    const response = await h.app.inject({
      method: 'POST',
      url: '/v1/tokens',
      headers: bearer(ownerToken),
      payload: {
        name: 'ok',
        kind: 'user',
        scopes: [SECRET_LOOKING],
        sneaky: SECRET_LOOKING,
        expiresInDays: 'soon',
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(PROBLEM);
    const body = json(response.body);
    expect(body).toMatchObject({ code: 'validation_failed', status: 400 });
    const paths = (body.errors as { path: string }[]).map((e) => e.path).sort();
    expect(paths).toEqual(['expiresInDays', 'scopes.0', 'sneaky']);
    expect(response.body).not.toContain(SECRET_LOOKING);
    expect(response.body).not.toContain('soon');
  });

  it('unknown query parameters on a GET → 400', async () => {
    const response = await h.app.inject({
      method: 'GET',
      url: '/v1/workspaces?limit=5&color=red',
      headers: bearer(ownerToken),
    });
    expect(response.statusCode).toBe(400);
    expect(json(response.body)).toMatchObject({ code: 'validation_failed', errors: [{ path: 'color' }] });
  });

  it('a field both in the path and in the body → 400 (never acts on the body’s id)', async () => {
    const other = await createTestWorkspace(h.db, acme.id);
    const response = await h.app.inject({
      method: 'PATCH',
      url: `/v1/workspaces/${workspaceId}`,
      headers: bearer(ownerToken),
      payload: { workspaceId: other.id, name: 'hijack' },
    });
    expect(response.statusCode).toBe(400);
    expect(json(response.body)).toMatchObject({
      code: 'validation_failed',
      errors: [{ path: 'workspaceId' }],
    });
    const unchanged = await h.db.withTenant(acme.id, (tx) =>
      tx.workspace.findUnique({ where: { id: other.id } }),
    );
    expect(unchanged?.name).not.toBe('hijack');
  });

  it('a JSON body that is not an object → 400', async () => {
    for (const payload of ['[1,2]', '"text"', 'null']) {
      const response = await h.app.inject({
        method: 'POST',
        url: '/v1/workspaces',
        headers: { ...bearer(ownerToken), 'content-type': 'application/json' },
        payload,
      });
      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toMatch(PROBLEM);
    }
  });

  it('prototype-poisoning JSON → 400, never 500', async () => {
    const response = await h.app.inject({
      method: 'POST',
      url: '/v1/workspaces',
      headers: { ...bearer(ownerToken), 'content-type': 'application/json' },
      payload: '{"name":"x","__proto__":{"polluted":true}}',
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(PROBLEM);
  });

  it('tampered, foreign and garbage cursors → 400 bad_cursor', async () => {
    const tenant = await createTestTenant(h.db);
    const admin = await createMember(h.db, tenant, 'admin');
    const token = (await mintTestToken(h.db, tenant, admin, { kind: 'user' })).secret;
    for (let i = 0; i < 3; i++) await createTestWorkspace(h.db, tenant.id);
    const first = await h.app.inject({
      method: 'GET',
      url: '/v1/workspaces?limit=1',
      headers: bearer(token),
    });
    const cursor = json(first.body).nextCursor as string;
    const last = cursor.at(-2) === 'A' ? 'B' : 'A';
    const tampered = `${cursor.slice(0, -2)}${last}${cursor.slice(-1)}`;
    const foreign = encodeCursor('members', { at: new Date(), id: randomUUID() });
    for (const bad of [tampered, foreign, 'Zm9v', '!!!']) {
      const response = await h.app.inject({
        method: 'GET',
        url: '/v1/workspaces',
        query: { cursor: bad },
        headers: bearer(token),
      });
      expect(response.statusCode).toBe(400);
      expect(json(response.body).code).toMatch(/^(bad_cursor|validation_failed)$/);
    }
    const graphql = await h.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: bearer(token),
      payload: {
        query: 'query($c: String) { workspaces(input: { cursor: $c }) { nextCursor } }',
        variables: { c: foreign },
      },
    });
    expect(json(graphql.body)).toMatchObject({
      errors: [{ extensions: { code: 'bad_cursor', status: 400 } }],
    });
  });

  it('GraphQL: invalid variables and unknown fields are 400s whose messages do not echo values', async () => {
    const response = await h.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: bearer(ownerToken),
      payload: {
        query: 'query($i: WorkspacesInput) { workspaces(input: $i) { nextCursor } }',
        variables: { i: { limit: SECRET_LOOKING } },
      },
    });
    expect(response.statusCode).toBe(400);
    expect(json(response.body)).toMatchObject({
      data: null,
      errors: [{ extensions: { code: 'validation_failed', status: 400 } }],
    });
    expect(response.body).not.toContain(SECRET_LOOKING);

    const unknown = await h.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: bearer(ownerToken),
      payload: { query: '{ me { tenantId password } }' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(json(unknown.body)).toMatchObject({ errors: [{ extensions: { code: 'validation_failed' } }] });
  });

  it('GraphQL: the standard introspection query is answered (tools and the cross-tenant harness use it)', async () => {
    const response = await h.app.inject({
      method: 'POST',
      url: '/graphql',
      payload: { query: getIntrospectionQuery() },
    });
    expect(response.statusCode).toBe(200);
    const types = (
      json(response.body).data as { __schema: { types: { name: string }[] } }
    ).__schema.types.map((t) => t.name);
    expect(types).toEqual(
      expect.arrayContaining(['Query', 'Mutation', 'Workspace', 'ApiToken', 'CreatedApiToken']),
    );
  });

  it('GraphQL: a query nested deeper than the limit is refused', async () => {
    const deep = `{ __schema { types { ${'fields { type { ofType { '.repeat(6)}name${' } } }'.repeat(6)} } } }`;
    const response = await h.app.inject({ method: 'POST', url: '/graphql', payload: { query: deep } });
    expect(response.statusCode).toBe(400);
    // Its estimated cost is over the limit too (query-cost-rule): the depth refusal comes first.
    expect(json(response.body)).toMatchObject({
      errors: [{ extensions: { code: 'validation_failed' } }, {}],
    });
  });

  it('GraphQL: a mutation over GET is refused', async () => {
    const response = await h.app.inject({
      method: 'GET',
      url: '/graphql',
      query: { query: 'mutation { renameTenant(input: { name: "over get" }) { name } }' },
      headers: bearer(ownerToken),
    });
    expect(response.statusCode).toBe(405);
    expect(json(response.body)).toMatchObject({ errors: [{ extensions: { code: 'method_not_allowed' } }] });
  });
});

describe('NUL characters, token-shaped names and GraphQL root fields', () => {
  // Postgres refuses NUL in text and jsonb: the edge refuses it first, so it is a 400, never a 500.
  function expectInvalidCharacters(response: {
    statusCode: number;
    headers: Record<string, unknown>;
    body: string;
  }) {
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(PROBLEM);
    expect(json(response.body)).toMatchObject({ code: 'invalid_characters', status: 400 });
  }

  it('refuses NUL in the unauthenticated sign-in body', async () => {
    const response = await h.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: 'a\u0000b@x.test', password: TEST_PASSWORD, tenant: acme.slug },
    });
    expectInvalidCharacters(response);
  });

  it('refuses NUL in a command body, and leaves the tenant unchanged', async () => {
    const response = await h.app.inject({
      method: 'PATCH',
      url: '/v1/tenant',
      headers: bearer(ownerToken),
      payload: { name: 'a\u0000b' },
    });
    expectInvalidCharacters(response);
    const tenant = await h.app.inject({ method: 'GET', url: '/v1/tenant', headers: bearer(ownerToken) });
    expect(json(tenant.body).name).not.toContain('\u0000');
  });

  it('refuses NUL in a query string', async () => {
    const response = await h.app.inject({
      method: 'GET',
      url: '/v1/audit-events?actorId=%00',
      headers: bearer(ownerToken),
    });
    expectInvalidCharacters(response);
  });

  it('refuses NUL in GraphQL variables (and in a GET query) with a GraphQL error', async () => {
    const response = await h.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: bearer(ownerToken),
      payload: {
        query: 'mutation($i: CreateWorkspaceInput!) { createWorkspace(input: $i) { id } }',
        variables: { i: { name: 'a\u0000b' } },
      },
    });
    expect(response.statusCode).toBe(400);
    expect(json(response.body)).toMatchObject({
      data: null,
      errors: [{ extensions: { code: 'invalid_characters', status: 400 } }],
    });

    const overGet = await h.app.inject({
      method: 'GET',
      url: '/graphql',
      query: {
        query: 'query($c: String) { workspaces(input: { cursor: $c }) { nextCursor } }',
        variables: JSON.stringify({ c: 'a\u0000b' }),
      },
      headers: bearer(ownerToken),
    });
    expect(overGet.statusCode).toBe(400);
    expect(json(overGet.body)).toMatchObject({ errors: [{ extensions: { code: 'invalid_characters' } }] });
  });

  it('refuses a token-shaped name with 400 validation_failed, on REST and GraphQL', async () => {
    const tokenShaped = 'ghu_AAAAAAAAAAAAAAAAAAAA';
    const workspace = await h.app.inject({
      method: 'POST',
      url: '/v1/workspaces',
      headers: bearer(ownerToken),
      payload: { name: tokenShaped },
    });
    expect(workspace.statusCode).toBe(400);
    expect(json(workspace.body)).toMatchObject({ code: 'validation_failed', errors: [{ path: 'name' }] });
    expect(workspace.body).not.toContain(tokenShaped);

    const tenant = await h.app.inject({
      method: 'PATCH',
      url: '/v1/tenant',
      headers: bearer(ownerToken),
      payload: { name: `Acme ${tokenShaped}` },
    });
    expect(tenant.statusCode).toBe(400);
    expect(json(tenant.body)).toMatchObject({ code: 'validation_failed', errors: [{ path: 'name' }] });

    const graphql = await h.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: bearer(ownerToken),
      payload: { query: `mutation { createWorkspace(input: { name: "${tokenShaped}" }) { id } }` },
    });
    expect(json(graphql.body)).toMatchObject({
      errors: [{ extensions: { code: 'validation_failed', status: 400 } }],
    });
  });

  function aliased(count: number): string {
    return `{ ${Array.from({ length: count }, (_, i) => `a${i}: verifyAuditChain { ok }`).join(' ')} }`;
  }

  it('answers an operation with 20 root fields (aliases included)', async () => {
    const response = await h.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: bearer(ownerToken),
      payload: { query: aliased(20) },
    });
    expect(response.statusCode).toBe(200);
    expect(Object.keys(json(response.body).data as object)).toHaveLength(20);
  });

  it('refuses 21 aliased root fields, also when a fragment spreads them at the root', async () => {
    const response = await h.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: bearer(ownerToken),
      payload: { query: aliased(21) },
    });
    expect(response.statusCode).toBe(400);
    expect(json(response.body)).toMatchObject({
      data: null,
      errors: [{ extensions: { code: 'too_many_fields', status: 400 } }],
    });

    const fields = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => `f${from + i}: me { via }`).join(' ');
    const viaFragment = await h.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: bearer(ownerToken),
      payload: { query: `query { ${fields(0, 11)} ...Rest } fragment Rest on Query { ${fields(11, 21)} }` },
    });
    expect(viaFragment.statusCode).toBe(400);
    expect(json(viaFragment.body)).toMatchObject({ errors: [{ extensions: { code: 'too_many_fields' } }] });
  });
});

describe('pagination', () => {
  it('walks every row exactly once with nextCursor, on REST and GraphQL', async () => {
    const tenant = await createTestTenant(h.db);
    const admin = await createMember(h.db, tenant, 'admin');
    const token = (await mintTestToken(h.db, tenant, admin, { kind: 'user' })).secret;
    const created = [];
    for (let i = 0; i < 5; i++) created.push((await createTestWorkspace(h.db, tenant.id)).id);

    const restSeen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: Record<string, string> = { limit: '2', ...(cursor !== null ? { cursor } : {}) };
      const response = await h.app.inject({
        method: 'GET',
        url: '/v1/workspaces',
        query,
        headers: bearer(token),
      });
      const page = json(response.body) as { items: { id: string }[]; nextCursor: string | null };
      restSeen.push(...page.items.map((w) => w.id));
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(new Set(restSeen)).toEqual(new Set(created));
    expect(restSeen).toHaveLength(5);

    const graphqlSeen: string[] = [];
    cursor = null;
    type WorkspacePage = { items: { id: string }[]; nextCursor: string | null };
    do {
      const variables: { i: { limit: number; cursor: string | null } } = { i: { limit: 2, cursor } };
      const response: { body: string } = await h.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: bearer(token),
        payload: {
          query: 'query($i: WorkspacesInput) { workspaces(input: $i) { items { id } nextCursor } }',
          variables,
        },
      });
      const page: WorkspacePage = (json(response.body).data as { workspaces: WorkspacePage }).workspaces;
      graphqlSeen.push(...page.items.map((w) => w.id));
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(graphqlSeen).toEqual(restSeen);
  });
});

describe('secrets and caching', () => {
  it('sends the one-time token secret with Cache-Control: no-store, and other answers without it', async () => {
    const created = await h.app.inject({
      method: 'POST',
      url: '/v1/tokens',
      headers: bearer(ownerToken),
      payload: { name: 'ci', kind: 'user', scopes: ['tenant:read'] },
    });
    expect(created.statusCode).toBe(201);
    expect(created.headers['cache-control']).toBe('no-store');
    const secret = json(created.body).secret as string;
    expect(secret).toMatch(/^ghu_/);

    const listed = await h.app.inject({
      method: 'GET',
      url: '/v1/tokens?includeRevoked=true',
      headers: bearer(ownerToken),
    });
    expect(listed.headers['cache-control']).toBeUndefined();
    expect(listed.body).not.toContain(secret);
    expect(listed.body).not.toMatch(/secretHash|secret_hash/);

    const viaGraphql = await h.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: bearer(ownerToken),
      payload: {
        query:
          'mutation { createToken(input: { name: "gql", kind: "user", scopes: ["tenant:read"] }) { secret } }',
      },
    });
    expect(viaGraphql.statusCode).toBe(200);
    expect(viaGraphql.headers['cache-control']).toBe('no-store');
    const graphqlRead = await h.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: bearer(ownerToken),
      payload: { query: '{ me { via } }' },
    });
    expect(graphqlRead.headers['cache-control']).toBeUndefined();

    // The audit trail names the token, never its secret.
    const audit = await h.app.inject({
      method: 'GET',
      url: '/v1/audit-events?action=tokens.create',
      headers: bearer(ownerToken),
    });
    expect(json(audit.body).items).not.toHaveLength(0);
    expect(audit.body).not.toContain(secret);
  });
});

describe('CSRF for cookie sessions', () => {
  async function signIn(): Promise<{ cookie: string; csrfToken: string }> {
    const user = await createMember(h.db, acme, 'admin');
    const response = await h.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: user.email, password: TEST_PASSWORD, tenant: acme.slug },
    });
    expect(response.statusCode).toBe(200);
    const setCookie = response.headers['set-cookie'];
    const cookie = (Array.isArray(setCookie) ? setCookie[0] : setCookie)?.split(';')[0];
    if (cookie === undefined) throw new Error('no session cookie');
    return { cookie, csrfToken: json(response.body).csrfToken as string };
  }

  it('refuses a cookie-authenticated POST /graphql without the CSRF token, accepts it with the token', async () => {
    const { cookie, csrfToken } = await signIn();
    const mutation = { query: 'mutation { createWorkspace(input: { name: "via cookie" }) { id name } }' };

    const refused = await h.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { cookie },
      payload: mutation,
    });
    expect(refused.statusCode).toBe(403);
    expect(json(refused.body)).toMatchObject({
      data: null,
      errors: [{ extensions: { code: 'csrf_failed', status: 403 } }],
    });
    const none = await h.db.withTenant(acme.id, (tx) =>
      tx.workspace.findFirst({ where: { name: 'via cookie' } }),
    );
    expect(none).toBeNull();

    const accepted = await h.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { cookie, [CSRF_HEADER]: csrfToken },
      payload: mutation,
    });
    expect(accepted.statusCode).toBe(200);
    expect(json(accepted.body)).toMatchObject({ data: { createWorkspace: { name: 'via cookie' } } });
  });

  it('refuses a cookie-authenticated REST write without the token; reads need none', async () => {
    const { cookie, csrfToken } = await signIn();
    const refused = await h.app.inject({
      method: 'PATCH',
      url: '/v1/tenant',
      headers: { cookie },
      payload: { name: 'Nope' },
    });
    expect(refused.statusCode).toBe(403);
    expect(json(refused.body)).toMatchObject({ code: 'csrf_failed' });

    const read = await h.app.inject({ method: 'GET', url: '/v1/tenant', headers: { cookie } });
    expect(read.statusCode).toBe(200);

    const accepted = await h.app.inject({
      method: 'PATCH',
      url: '/v1/tenant',
      headers: { cookie, [CSRF_HEADER]: csrfToken },
      payload: { name: 'Acme via cookie' },
    });
    expect(accepted.statusCode).toBe(200);
    expect(json(accepted.body)).toMatchObject({ name: 'Acme via cookie' });
  });
});

describe('OpenAPI', () => {
  it('documents every command at its method and path, and serves the UI at /docs', async () => {
    const response = await h.app.inject({ method: 'GET', url: '/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = json(response.body) as {
      openapi: string;
      paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, unknown> }>>;
    };
    expect(document.openapi).toMatch(/^3\./);
    for (const command of COMMANDS) {
      const path = command.http.path.replace(/:([A-Za-z]+)/g, '{$1}');
      const operation = document.paths[path]?.[command.http.method.toLowerCase()];
      expect(operation?.operationId).toBe(command.name);
      expect(Object.keys(operation?.responses ?? {})).toContain(String(command.http.successStatus ?? 200));
    }
    const operations = Object.values(document.paths).flatMap((item) => Object.keys(item));
    expect(operations).toHaveLength(COMMANDS.length);

    const ui = await h.app.inject({ method: 'GET', url: '/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toMatch(/text\/html/);
  });
});

describe('the runner, with a probe command', () => {
  // A test-only command whose handler misbehaves on purpose: the runner, not the use case, must keep
  // undeclared fields and infrastructure errors away from clients.
  const probe = defineCommand({
    name: 'probe.get',
    summary: 'probe',
    scope: 'tenant:read',
    kind: 'query',
    input: z.strictObject({ mode: z.enum(['extra', 'mismatch', 'crash']) }),
    output: z.object({ name: z.string() }).meta({ title: 'Probe' }),
    http: { method: 'GET', path: '/v1/probe' },
    graphql: { field: 'probe' },
  });
  const handler = {
    async execute({ input }: { principal: TenantPrincipal; input: { mode: string } }) {
      if (input.mode === 'crash')
        throw new Error('connect ECONNREFUSED postgresql://gatehouse_app:hunter2@db:5432');
      if (input.mode === 'mismatch') return { name: 42 };
      return { name: 'probe', secretHash: 'LEAKED-COLUMN', passwordHash: 'LEAKED-HASH' };
    },
  };
  const principal: TenantPrincipal = {
    type: 'tenant',
    tenantId: randomUUID(),
    tenantSlug: 'probe',
    userId: null,
    role: null,
    via: 'agent',
    sessionId: null,
    tokenId: randomUUID(),
    scopes: ['tenant:read'],
    workspaceIds: [],
    pool: null,
  };
  let app: FastifyInstance;

  beforeAll(async () => {
    const logger = createLogger({ name: 'probe', level: 'silent' });
    app = Fastify({ logger: false });
    installProblemJsonHandlers(app, logger);
    const options = {
      commands: [probe],
      handlers: { [probe.name]: handler },
      resolvePrincipal: async () => principal,
      logger,
      workerPools: DEFAULT_WORKER_POOLS,
    };
    await registerCommandRoutes(app, options);
    await registerGraphQL(app, options);
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('strips fields the output schema does not declare', async () => {
    const rest = await app.inject({ method: 'GET', url: '/v1/probe?mode=extra' });
    expect(rest.statusCode).toBe(200);
    expect(json(rest.body)).toEqual({ name: 'probe' });
    expect(rest.body).not.toContain('LEAKED');

    const graphql = await app.inject({
      method: 'POST',
      url: '/graphql',
      payload: { query: '{ probe(input: { mode: "extra" }) { name } }' },
    });
    expect(json(graphql.body)).toEqual({ data: { probe: { name: 'probe' } } });
  });

  it('answers an output that breaks its schema, or an infrastructure error, with a generic 500', async () => {
    for (const mode of ['mismatch', 'crash']) {
      const rest = await app.inject({ method: 'GET', url: `/v1/probe?mode=${mode}` });
      expect(rest.statusCode).toBe(500);
      expect(rest.headers['content-type']).toMatch(PROBLEM);
      expect(json(rest.body)).toMatchObject({ code: 'internal', status: 500 });
      expect(rest.body).not.toMatch(/hunter2|ECONNREFUSED|postgresql|42/);

      const graphql = await app.inject({
        method: 'POST',
        url: '/graphql',
        payload: { query: `{ probe(input: { mode: "${mode}" }) { name } }` },
      });
      expect(graphql.statusCode).toBe(500);
      expect(json(graphql.body)).toMatchObject({
        data: null,
        errors: [{ extensions: { code: 'internal', status: 500 } }],
      });
      expect(graphql.body).not.toMatch(/hunter2|ECONNREFUSED|postgresql/);
    }
  });

  it('refuses to start when a command has no handler', async () => {
    const bare = Fastify({ logger: false });
    const logger = createLogger({ name: 'probe', level: 'silent' });
    await expect(
      registerCommandRoutes(bare, {
        commands: [probe],
        handlers: {},
        workerPools: DEFAULT_WORKER_POOLS,
        resolvePrincipal: async () => principal,
        logger,
      }),
    ).rejects.toThrow(/probe\.get/);
    await bare.close();
  });
});
