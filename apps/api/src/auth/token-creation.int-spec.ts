import { createLogger } from '@gatehouse/platform';
import { createTestTenant, createTestUser, createTestWorkspace, type TestTenant } from '@gatehouse/testing';
import { createCommandHandlerContext } from '../command-handlers-context';
import { testCommandInfrastructure } from '../commands/testing/command-infrastructure.harness';
import { registerCommandRoutes } from '../admin-surfaces/rest/register-command-routes';
import { resolvePrincipal } from './resolve-principal';
import {
  PROBE_READ,
  TEST_HASHER,
  createIdentityHarness,
  type IdentityHarness,
} from './testing/identity-harness';

const UNUSED_DATABASE_URL = 'postgresql://unused@127.0.0.1/unused';

// The token creation rules as a tenant meets them: POST /v1/tokens (the `tokens.create` command, whose use case
// runs decideTokenCreation + mintApiToken), signed in with a session cookie, through the real HTTP stack.

jest.setTimeout(60_000);

const PASSWORD = 'a sufficiently long password';

let h: IdentityHarness;
let acme: TestTenant;
let workspaceId: string;
let owner: { cookie: string; csrfToken: string };
let member: { cookie: string; csrfToken: string };

async function signIn(email: string) {
  const response = await h.app.inject({
    method: 'POST',
    url: '/v1/auth/login',
    payload: { email, password: PASSWORD },
  });
  expect(response.statusCode).toBe(200);
  return {
    cookie: String(response.headers['set-cookie']).split(';')[0] as string,
    csrfToken: response.json<{ csrfToken: string }>().csrfToken,
  };
}

function createToken(session: { cookie: string; csrfToken: string }, payload: Record<string, unknown>) {
  return h.app.inject({
    method: 'POST',
    url: '/v1/tokens',
    headers: { cookie: session.cookie, 'x-csrf-token': session.csrfToken },
    payload,
  });
}

beforeAll(async () => {
  h = await createIdentityHarness({
    extend: async (app, deps, db) => {
      // The context injects the database given here; the config's DATABASE_URL is never dialled.
      const infrastructure = testCommandInfrastructure({
        databaseUrl: UNUSED_DATABASE_URL,
        logger: deps.logger,
      });
      app.addHook('onClose', () => infrastructure.close());
      const workerPools = { default: { tenants: '*' as const }, eu: { tenants: ['globex'] } };
      const useCases = await createCommandHandlerContext({ database: db, workerPools, infrastructure });
      app.addHook('onClose', () => useCases.close());
      await registerCommandRoutes(app, {
        handlers: useCases.handlers,
        resolvePrincipal: (request) => resolvePrincipal(request, deps.auth),
        logger: createLogger({ name: 'test', level: 'silent' }),
        workerPools,
      });
    },
  });
  acme = await createTestTenant(h.db, { slug: 'acme' });
  workspaceId = (await createTestWorkspace(h.db, acme.id)).id;
  const passwordHash = await TEST_HASHER.hash(PASSWORD);
  owner = await signIn((await createTestUser(h.db, acme.id, { role: 'owner', passwordHash })).email);
  member = await signIn((await createTestUser(h.db, acme.id, { role: 'member', passwordHash })).email);
});

afterAll(async () => {
  await h.close();
});

describe('POST /v1/tokens: creation rules', () => {
  it('creates an agent token once, with no-store, and the secret then authenticates', async () => {
    const response = await createToken(owner, {
      name: 'ci agent',
      kind: 'agent',
      scopes: ['gateway:use'],
      workspaceIds: [workspaceId],
    });
    expect(response.statusCode).toBe(201);
    expect(response.headers['cache-control']).toBe('no-store');
    const { token, secret } = response.json();
    expect(secret).toMatch(/^gha_[0-9A-Za-z]{43}$/);
    expect(token.prefix).toBe(secret.slice(0, 10));
    const probe = await h.app.inject({
      method: 'GET',
      url: PROBE_READ,
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(probe.json().principal).toMatchObject({
      via: 'agent',
      tokenId: token.id,
      workspaceIds: [workspaceId],
    });
  });

  it('refuses approvals:decide on an agent token, naming the scope', async () => {
    const response = await createToken(owner, {
      name: 'agent',
      kind: 'agent',
      scopes: ['catalog:read', 'approvals:decide'],
      workspaceIds: [workspaceId],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'scope_not_allowed_for_kind' });
    expect(response.json().detail).toContain('approvals:decide');
  });

  it('refuses the gateway kind to tenant callers', async () => {
    const response = await createToken(owner, { name: 'gw', kind: 'gateway', scopes: ['tokens:introspect'] });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'validation_failed', errors: [{ path: 'kind' }] });
  });

  it('refuses a worker pool the operator has not opened to this tenant', async () => {
    const closed = await createToken(owner, {
      name: 'worker',
      kind: 'worker',
      scopes: ['leases:write'],
      pool: 'eu',
    });
    expect(closed.statusCode).toBe(400);
    expect(closed.json()).toMatchObject({ code: 'pool_not_open' });
    const open = await createToken(owner, {
      name: 'worker',
      kind: 'worker',
      scopes: ['leases:write'],
      pool: 'default',
    });
    expect(open.statusCode).toBe(201);
  });

  it('refuses an agent token without workspaces, and a workspace of no tenant of ours as not found', async () => {
    expect(
      (await createToken(owner, { name: 'a', kind: 'agent', scopes: ['gateway:use'] })).json(),
    ).toMatchObject({
      code: 'validation_failed',
      errors: [{ path: 'workspaceIds' }],
    });
    const missing = await createToken(owner, {
      name: 'a',
      kind: 'agent',
      scopes: ['gateway:use'],
      workspaceIds: ['00000000-0000-4000-8000-000000000000'],
    });
    expect(missing.statusCode).toBe(404);
  });

  it('keeps a user token within the creator role', async () => {
    const response = await createToken(owner, {
      name: 'mine',
      kind: 'user',
      scopes: ['members:write', 'approvals:decide'],
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().token).toMatchObject({
      kind: 'user',
      scopes: ['members:write', 'approvals:decide'],
    });
  });

  it('lets a member mint their own user token within their role, and nothing more', async () => {
    const own = await createToken(member, { name: 'mine', kind: 'user', scopes: ['catalog:read'] });
    expect(own.statusCode).toBe(201);
    const agent = await createToken(member, { name: 'agent', kind: 'agent', scopes: ['catalog:read'] });
    expect(agent.statusCode).toBe(403);
    expect(agent.json()).toMatchObject({ code: 'forbidden_scope' });
    const beyond = await createToken(member, { name: 'more', kind: 'user', scopes: ['members:write'] });
    expect(beyond.statusCode).toBe(403);
    expect(beyond.json()).toMatchObject({ code: 'forbidden_scope' });
  });
});
