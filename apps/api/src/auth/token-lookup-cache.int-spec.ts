import { ROLE_SCOPES } from '@gatehouse/commands';
import { createTestTenant, createTestUser, type TestTenant, type TestUser } from '@gatehouse/testing';
import { createCommandHandlerContext } from '../command-handlers-context';
import { testCommandInfrastructure } from '../commands/testing/command-infrastructure.harness';
import { registerAdminSurfaces } from '../register-admin-surfaces';
import { mintApiToken } from './mint-api-token';
import { DEFAULT_WORKER_POOLS } from './pool-config';
import { resolvePrincipal } from './resolve-principal';
import { PROBE_READ, createIdentityHarness, type IdentityHarness } from './testing/identity-harness';

const UNUSED_DATABASE_URL = 'postgresql://unused@127.0.0.1/unused';

// The bearer token cache (token-lookup-cache.ts), through the real HTTP stack, with entries that stay fresh for
// an hour: a change written behind the process's back is NOT seen (so the entry really is served from the
// cache), while a revocation through the API's own commands is refused on the very next request.

jest.setTimeout(60_000);

const AN_HOUR_MS = 3_600_000;

let h: IdentityHarness;
let acme: TestTenant;
let owner: TestUser;

async function mintUserToken(user: TestUser): Promise<{ secret: string; id: string }> {
  return h.db.withTenant(acme.id, async (tx) => {
    const minted = await mintApiToken(tx, {
      tenantId: acme.id,
      createdById: owner.id,
      name: 'cache test',
      grant: { kind: 'user', userId: user.id, scopes: ROLE_SCOPES[user.role], workspaceIds: [], pool: null },
      expiresAt: null,
    });
    return { secret: minted.secret, id: minted.token.id };
  });
}

async function principalOf(secret: string) {
  const response = await h.app.inject({
    method: 'GET',
    url: PROBE_READ,
    headers: { authorization: `Bearer ${secret}` },
  });
  return (response.json() as { principal: { tokenId?: string; role?: string } | null }).principal;
}

function command(method: 'DELETE' | 'PATCH', url: string, secret: string, payload?: object) {
  return h.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${secret}` },
    ...(payload ? { payload } : {}),
  });
}

beforeAll(async () => {
  h = await createIdentityHarness({
    tokenCacheTtlMs: AN_HOUR_MS,
    extend: async (app, deps, db) => {
      // The context injects the database given here; the config's DATABASE_URL is never dialled.
      const infrastructure = testCommandInfrastructure({
        databaseUrl: UNUSED_DATABASE_URL,
        logger: deps.logger,
      });
      app.addHook('onClose', () => infrastructure.close());
      const useCases = await createCommandHandlerContext({
        database: db,
        workerPools: DEFAULT_WORKER_POOLS,
        infrastructure,
      });
      app.addHook('onClose', () => useCases.close());
      await registerAdminSurfaces(app, {
        handlers: useCases.handlers,
        resolvePrincipal: (request) => resolvePrincipal(request, deps.auth),
        logger: deps.logger,
        workerPools: DEFAULT_WORKER_POOLS,
      });
    },
  });
  acme = await createTestTenant(h.db, { slug: 'acme' });
  owner = await createTestUser(h.db, acme.id, { role: 'owner' });
});

afterAll(async () => {
  await h.close();
});

describe('the bearer token cache', () => {
  it('serves a fresh entry without asking the database (a revocation written behind its back is not seen)', async () => {
    const token = await mintUserToken(owner);
    expect(await principalOf(token.secret)).toMatchObject({ tokenId: token.id });
    await h.asSuperuser('UPDATE api_tokens SET revoked_at = now() WHERE id = $1', [token.id]);
    // Bounded by the TTL in production (5 s): this entry has an hour.
    expect(await principalOf(token.secret)).toMatchObject({ tokenId: token.id });
  });

  it('refuses a token revoked through tokens.revoke at once, while its entry would still be fresh', async () => {
    const admin = await createTestUser(h.db, acme.id, { role: 'admin' });
    const token = await mintUserToken(admin);
    const revoker = await mintUserToken(owner);
    expect(await principalOf(token.secret)).toMatchObject({ tokenId: token.id });

    const revoked = await command('DELETE', `/v1/tokens/${token.id}`, revoker.secret);
    expect(revoked.statusCode).toBe(200);

    expect(await principalOf(token.secret)).toBeNull();
    const refused = await command('DELETE', `/v1/tokens/${revoker.id}`, token.secret);
    expect(refused.statusCode).toBe(401);
    // The revoker's own entry was dropped too, and is simply looked up again.
    expect(await principalOf(revoker.secret)).toMatchObject({ tokenId: revoker.id });
  });

  it("refuses a removed member's token at once, and a demoted member's token loses the role at once", async () => {
    const removed = await createTestUser(h.db, acme.id, { role: 'member' });
    const demoted = await createTestUser(h.db, acme.id, { role: 'admin' });
    const removedToken = await mintUserToken(removed);
    const demotedToken = await mintUserToken(demoted);
    const ownerToken = await mintUserToken(owner);
    expect(await principalOf(removedToken.secret)).toMatchObject({ tokenId: removedToken.id });
    expect(await principalOf(demotedToken.secret)).toMatchObject({ role: 'admin' });

    expect((await command('DELETE', `/v1/members/${removed.id}`, ownerToken.secret)).statusCode).toBe(200);
    expect(await principalOf(removedToken.secret)).toBeNull();

    const changed = await command('PATCH', `/v1/members/${demoted.id}`, ownerToken.secret, {
      role: 'member',
    });
    expect(changed.statusCode).toBe(200);
    expect(await principalOf(demotedToken.secret)).toMatchObject({ role: 'member' });
  });
});
