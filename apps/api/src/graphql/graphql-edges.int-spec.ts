import { randomUUID } from 'node:crypto';
import { createTestWorkspace, TEST_DATABASE_TIMEOUT_MS, type TestTenant } from '@gatehouse/testing';
import { getIntrospectionQuery } from 'graphql';
import { createMember, createTestTenant, mintTestToken } from '../commands/testing/surfaces-harness';
import {
  startListeningApi,
  type ListeningApi,
  type RawResponse,
} from '../http/testing/listening-api.harness';
import { MAX_ALIASES, MAX_SELECTIONS } from './query-cost-rule';

// GraphQL over HTTP against the real API (createApiApp, listening): requests that cannot run are 4xx with a
// stable code in `extensions.code`, never 500 (docs/architecture/admin-surfaces.md), and a query whose answer
// would be far larger than the query is refused before anything executes (item 12).

jest.setTimeout(60_000);

let api: ListeningApi;
let tenant: TestTenant;
let token: string;

beforeAll(async () => {
  api = await startListeningApi();
  tenant = await createTestTenant(api.db, { slug: `gql-${randomUUID().slice(0, 6)}` });
  const owner = await createMember(api.db, tenant, 'owner');
  token = (await mintTestToken(api.db, tenant, owner, { kind: 'user' })).secret;
  for (let i = 0; i < 3; i++) await createTestWorkspace(api.db, tenant.id);
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await api?.close();
}, TEST_DATABASE_TIMEOUT_MS);

type Body = {
  data?: unknown;
  errors?: { message: string; extensions?: { code?: string; status?: number } }[];
};

function post(body: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return api.send({
    method: 'POST',
    path: '/graphql',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
}

function get(params: Record<string, string>, headers: Record<string, string> = {}): Promise<RawResponse> {
  return api.send({ method: 'GET', path: `/graphql?${new URLSearchParams(params).toString()}`, headers });
}

const auth = () => ({ authorization: `Bearer ${token}` });

/** A 4xx GraphQL error answer with this code in every error, as JSON, never problem-less or 500. */
function expectRefused(response: RawResponse, code: string, status = 400): void {
  expect({ status: response.status, body: response.body }).toMatchObject({ status });
  expect(response.contentType).toMatch(/^application\/json/);
  const body = response.json() as Body;
  expect(body.data ?? null).toBeNull();
  expect(body.errors?.length).toBeGreaterThan(0);
  for (const error of body.errors ?? []) expect(error.extensions).toMatchObject({ code, status });
}

describe('requests that cannot run are 4xx with a code, without authentication (item 13)', () => {
  it.each([
    ['an empty object', '{}'],
    ['an empty array', '[]'],
    ['an empty body', ''],
  ])('an application/graphql body of %s', async (_label, body) => {
    const response = await api.send({
      method: 'POST',
      path: '/graphql',
      headers: { 'content-type': 'application/graphql' },
      body,
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    const errors = (response.json() as Body).errors ?? [];
    expect(errors[0]?.extensions?.code).toEqual(expect.any(String));
    expect(errors[0]?.extensions?.code).not.toBe('internal');
  });

  it.each([
    ['an empty object', '{}'],
    ['an empty array', '[]'],
    ['null', 'null'],
    ['a number as query', '{"query": 5}'],
    ['an empty query', '{"query": ""}'],
    ['a string as variables', '{"query": "{ me { via } }", "variables": "x"}'],
    ['a number as operationName', '{"query": "{ me { via } }", "operationName": 5}'],
  ])('a JSON body of %s', async (_label, body) => {
    const response = await post(body);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    const errors = (response.json() as Body).errors ?? [];
    expect(errors[0]?.extensions?.code).toEqual(expect.any(String));
    expect(errors[0]?.extensions?.code).not.toBe('internal');
  });

  it.each([
    ['selections', `{${' me {'.repeat(60_000)} via${' }'.repeat(60_001)}`],
    ['inline fragments', `{${' ... on Query {'.repeat(30_000)} me { via }${' }'.repeat(30_001)}`],
    [
      'an argument literal',
      `mutation { putDefinitionSource(input: {tier: "user", document: ${'{a: '.repeat(60_000)}1${'}'.repeat(60_000)}}) { id } }`,
    ],
    [
      'a list literal',
      `mutation { putDefinitionSource(input: {tier: "user", document: {a: ${'['.repeat(60_000)}1${']'.repeat(60_000)}}}) { id } }`,
    ],
  ])('a query nested too deep to parse (%s) → 400 with a code, no engine message', async (_label, query) => {
    const response = await post(JSON.stringify({ query }), auth());
    expectRefused(response, 'validation_failed');
    expect(response.body).not.toMatch(/call stack|RangeError/i);
  });

  const twoOperations = 'query A { me { via } } query B { me { via } }';

  it('two operations without operationName → 400 operation_name_required (POST and GET)', async () => {
    expectRefused(await post(JSON.stringify({ query: twoOperations })), 'operation_name_required');
    expectRefused(await get({ query: twoOperations }), 'operation_name_required');
  });

  it('an unknown operationName → 400 unknown_operation (POST and GET, named or anonymous document)', async () => {
    for (const query of [twoOperations, '{ me { via } }', 'query A { me { via } }']) {
      expectRefused(await post(JSON.stringify({ query, operationName: 'Nope' })), 'unknown_operation');
      expectRefused(await get({ query, operationName: 'Nope' }), 'unknown_operation');
    }
  });

  it('a subscription → 400 subscriptions_unsupported (POST and GET)', async () => {
    const query = 'subscription { me { via } }';
    expectRefused(await post(JSON.stringify({ query })), 'subscriptions_unsupported');
    expectRefused(await get({ query }), 'subscriptions_unsupported');
    const named = 'query A { me { via } } subscription S { me { via } }';
    expectRefused(
      await post(JSON.stringify({ query: named, operationName: 'S' })),
      'subscriptions_unsupported',
    );
  });

  it('still runs the operation operationName names in a document of several', async () => {
    const response = await post(
      JSON.stringify({ query: 'query A { me { via } } query B { me { tenantId } }', operationName: 'B' }),
      auth(),
    );
    expect(response.status).toBe(200);
    expect(response.json()).toEqual({ data: { me: { tenantId: tenant.id } } });
  });
});

// About 25 selections, no alias: approval requests × their changes, entries × what shadows them.
const COSTLY =
  '{ approvalRequests { items { changes { kind path before after } ' +
  'identity { key serverName definitionFingerprint securityIdentity repositoryIdentity } } } ' +
  'effectiveDefinitions(input: { workspaceId: "00000000-0000-4000-8000-000000000000" }) { entries { ' +
  'shadowed { state source { tier origin } } activation { state reasons } name status } } }';

describe('the cost of a query is bounded before it runs (item 12)', () => {
  function aliases(count: number, field = 'id'): string {
    return Array.from({ length: count }, (_, i) => `a${i}: ${field}`).join(' ');
  }

  it(`answers ${MAX_ALIASES} aliases inside a list`, async () => {
    const response = await post(
      JSON.stringify({ query: `{ workspaces { items { ${aliases(MAX_ALIASES)} } } }` }),
      auth(),
    );
    expect(response.status).toBe(200);
    const items = (response.json().data as { workspaces: { items: object[] } }).workspaces.items;
    expect(items).toHaveLength(3);
    expect(Object.keys(items[0] ?? {})).toHaveLength(MAX_ALIASES);
  });

  it('refuses more aliases than that, also through fragments, with 400 too_many_aliases', async () => {
    expectRefused(
      await post(
        JSON.stringify({ query: `{ workspaces { items { ${aliases(MAX_ALIASES + 1)} } } }` }),
        auth(),
      ),
      'too_many_aliases',
    );
    const viaFragments =
      `{ workspaces { items { ...A ...B } } } ` +
      `fragment A on Workspace { ${aliases(20)} } fragment B on Workspace { ${aliases(20, 'name').replace(/a(\d+):/g, 'b$1:')} }`;
    expectRefused(await post(JSON.stringify({ query: viaFragments }), auth()), 'too_many_aliases');
  });

  it('refuses before executing: a mutation over the alias limit changes nothing', async () => {
    const name = `never-${randomUUID().slice(0, 8)}`;
    const response = await post(
      JSON.stringify({
        query: `mutation { createWorkspace(input: { name: "${name}" }) { ${aliases(MAX_ALIASES + 1)} } }`,
      }),
      auth(),
    );
    expectRefused(response, 'too_many_aliases');
    const created = await api.db.withTenant(tenant.id, (tx) => tx.workspace.findFirst({ where: { name } }));
    expect(created).toBeNull();
  });

  it('refuses a fragment bomb (every spread counted) with 400 too_many_selections', async () => {
    // 2^14 spreads of `me { via }`: one small document, a selection count far over the limit.
    const levels = 14;
    const fragments = [`fragment F0 on Query { me { via } }`];
    for (let i = 1; i <= levels; i++) fragments.push(`fragment F${i} on Query { ...F${i - 1} ...F${i - 1} }`);
    const query = `{ ...F${levels} } ${fragments.join(' ')}`;
    expect(2 ** levels).toBeGreaterThan(MAX_SELECTIONS);
    expectRefused(await post(JSON.stringify({ query }), auth()), 'too_many_selections');
  });

  it('refuses nested list fan-out with 400 query_too_costly, with few selections and no alias', async () => {
    // Every item of an outer list repeats what is selected under it: approval requests × their changes × ...
    expectRefused(await post(JSON.stringify({ query: COSTLY }), auth()), 'query_too_costly');
  });

  it('answers the standard introspection query, and an everyday list query', async () => {
    const introspection = await post(JSON.stringify({ query: getIntrospectionQuery() }));
    expect(introspection.status).toBe(200);
    const list = await post(
      JSON.stringify({
        query: '{ tokens { items { id name kind scopes workspaceIds createdAt } nextCursor } }',
      }),
      auth(),
    );
    expect(list.status).toBe(200);
  });

  it('refuses the introspection query repeated under aliases (its cost counts too)', async () => {
    const standard = getIntrospectionQuery();
    const fragments = standard.slice(standard.indexOf('fragment FullType'));
    const repeated = ['a', 'b', 'c'].map((alias) => `${alias}: __schema { types { ...FullType } }`);
    const response = await post(JSON.stringify({ query: `{ ${repeated.join(' ')} } ${fragments}` }));
    expectRefused(response, 'query_too_costly');
  });

  it('judges the same document per request, by its variables (@include)', async () => {
    const query = `query($big: Boolean!) { me { via } ...Costly @include(if: $big) } fragment Costly on Query ${COSTLY}`;
    const small = await post(JSON.stringify({ query, variables: { big: false } }), auth());
    expect(small.status).toBe(200);
    expect(small.json()).toEqual({ data: { me: { via: 'user' } } });
    expectRefused(
      await post(JSON.stringify({ query, variables: { big: true } }), auth()),
      'query_too_costly',
    );
  });
});
