import { randomUUID } from 'node:crypto';
import { ROLE_SCOPES, type Scope, type TokenKind } from '@gatehouse/commands';
import { insertGatewayToken } from '@gatehouse/db';
import {
  createTestTenant,
  createTestUser,
  createTestWorkspace,
  type TestTenant,
  type TestUser,
} from '@gatehouse/testing';
import { mintTokenSecret } from './api-token-format';
import { existingWorkspaceIds, mintApiToken } from './mint-api-token';
import { DEFAULT_WORKER_POOLS } from './pool-config';
import { decideTokenCreation } from './token-creation.policy';
import {
  PROBE_READ,
  PROBE_WRITE,
  TEST_HASHER,
  createIdentityHarness,
  type IdentityHarness,
} from './testing/identity-harness';

// Bearer tokens through the real HTTP stack: each kind authenticates as the right principal; revoked, expired,
// unknown and malformed tokens get one and the same 401; a user token follows its user's CURRENT role.

jest.setTimeout(60_000);

let h: IdentityHarness;
let acme: TestTenant;
let owner: TestUser;
let workspaceId: string;

async function mint(
  user: TestUser | null,
  request: { kind: Exclude<TokenKind, 'gateway'>; scopes: Scope[]; workspaceIds?: string[]; pool?: string },
  expiresAt: Date | null = null,
) {
  return h.db.withTenant(acme.id, async (tx) => {
    const creator = user
      ? { tenantSlug: acme.slug, userId: user.id, role: user.role, scopes: ROLE_SCOPES[user.role] }
      : { tenantSlug: acme.slug, userId: owner.id, role: 'owner' as const, scopes: ROLE_SCOPES.owner };
    const workspaceIds = request.workspaceIds ?? [];
    const decision = decideTokenCreation(
      creator,
      { kind: request.kind, scopes: request.scopes, workspaceIds, pool: request.pool ?? null },
      { pools: DEFAULT_WORKER_POOLS, existingWorkspaceIds: await existingWorkspaceIds(tx, workspaceIds) },
    );
    if (!decision.ok) throw new Error(`test token refused: ${decision.reason}`);
    return mintApiToken(tx, {
      tenantId: acme.id,
      createdById: owner.id,
      name: 'test token',
      grant: decision.grant,
      expiresAt,
    });
  });
}

function probe(authorization: string, extraHeaders: Record<string, string> = {}) {
  return h.app.inject({ method: 'GET', url: PROBE_READ, headers: { authorization, ...extraHeaders } });
}

function probeWrite(authorization: string) {
  return h.app.inject({ method: 'POST', url: PROBE_WRITE, headers: { authorization }, payload: {} });
}

beforeAll(async () => {
  h = await createIdentityHarness();
  acme = await createTestTenant(h.db, { slug: 'acme' });
  owner = await createTestUser(h.db, acme.id, {
    role: 'owner',
    passwordHash: await TEST_HASHER.hash('irrelevant password'),
  });
  workspaceId = (await createTestWorkspace(h.db, acme.id)).id;
});

afterAll(async () => {
  await h.close();
});

describe('each token kind authenticates as its principal', () => {
  it('user token: the user, their role, token scopes within the role', async () => {
    const { token, secret } = await mint(owner, { kind: 'user', scopes: ['tokens:read', 'members:write'] });
    const response = await probe(`Bearer ${secret}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().principal).toEqual({
      type: 'tenant',
      tenantId: acme.id,
      tenantSlug: 'acme',
      userId: owner.id,
      role: 'owner',
      via: 'user',
      sessionId: null,
      tokenId: token.id,
      scopes: ['tokens:read', 'members:write'],
      workspaceIds: [],
      pool: null,
    });
  });

  it('agent token: no user, workspace-bound, agent scopes', async () => {
    const { token, secret } = await mint(null, {
      kind: 'agent',
      scopes: ['catalog:read', 'gateway:use'],
      workspaceIds: [workspaceId],
    });
    expect((await probe(`Bearer ${secret}`)).json().principal).toMatchObject({
      type: 'tenant',
      tenantId: acme.id,
      userId: null,
      role: null,
      via: 'agent',
      tokenId: token.id,
      scopes: ['catalog:read', 'gateway:use'],
      workspaceIds: [workspaceId],
    });
  });

  it('worker token: tenant-bound with its pool', async () => {
    const { secret } = await mint(null, {
      kind: 'worker',
      scopes: ['leases:write', 'snapshots:write'],
      pool: 'default',
    });
    expect((await probe(`Bearer ${secret}`)).json().principal).toMatchObject({
      type: 'tenant',
      via: 'worker',
      userId: null,
      pool: 'default',
      scopes: ['leases:write', 'snapshots:write'],
    });
  });

  it('gateway token: a platform principal with no tenant, refused by tenant routes', async () => {
    const minted = mintTokenSecret('gateway');
    const id = await insertGatewayToken({
      ownerUrl: h.testDb.ownerUrl,
      name: 'gw',
      scopes: ['tokens:introspect', 'leases:write'],
      pool: null,
      secretHash: minted.secretHash,
      prefix: minted.prefix,
      expiresAt: null,
    });
    expect((await probe(`Bearer ${minted.secret}`)).json().principal).toEqual({
      type: 'platform',
      via: 'gateway',
      tokenId: id,
      scopes: ['tokens:introspect', 'leases:write'],
    });
    const write = await probeWrite(`Bearer ${minted.secret}`);
    expect(write.statusCode).toBe(403);
    expect(write.json()).toMatchObject({ code: 'forbidden_scope' });
  });

  it('bearer writes need no CSRF token, and lastUsedAt moves', async () => {
    const { token, secret } = await mint(owner, { kind: 'user', scopes: ['tenant:read'] });
    const response = await probeWrite(`Bearer ${secret}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ via: 'user' });
    const row = await h.db.withTenant(acme.id, (tx) =>
      tx.apiToken.findUniqueOrThrow({ where: { id: token.id } }),
    );
    expect(row.lastUsedAt).not.toBeNull();
  });
});

describe('a user token follows the current role of its user', () => {
  it('loses the scopes a demotion takes away, and stops working once the membership is gone', async () => {
    const admin = await createTestUser(h.db, acme.id, { role: 'admin' });
    const { secret } = await mint(admin, {
      kind: 'user',
      scopes: ['members:write', 'tenant:read', 'catalog:read'],
    });
    expect((await probe(`Bearer ${secret}`)).json().principal.scopes).toEqual([
      'members:write',
      'tenant:read',
      'catalog:read',
    ]);

    await h.db.withTenant(acme.id, (tx) =>
      tx.membership.updateMany({ where: { userId: admin.id }, data: { role: 'member' } }),
    );
    expect((await probe(`Bearer ${secret}`)).json().principal).toMatchObject({
      role: 'member',
      scopes: ['tenant:read', 'catalog:read'],
    });

    await h.db.withTenant(acme.id, (tx) => tx.membership.deleteMany({ where: { userId: admin.id } }));
    expect((await probe(`Bearer ${secret}`)).json().principal).toBeNull();
    expect((await probeWrite(`Bearer ${secret}`)).statusCode).toBe(401);
  });

  it('stops working once its user is disabled, and a role in ANOTHER tenant never stands in', async () => {
    const member = await createTestUser(h.db, acme.id, { role: 'member' });
    const { secret } = await mint(member, { kind: 'user', scopes: ['tenant:read'] });
    expect((await probe(`Bearer ${secret}`)).json().principal).toMatchObject({ userId: member.id });

    // Owner of another tenant, then removed from acme: the token (acme's) must not pick up globex's role.
    const globex = await createTestTenant(h.db);
    await h.asSuperuser(
      "INSERT INTO memberships (id, tenant_id, user_id, role) VALUES ($1, $2, $3, 'owner')",
      [randomUUID(), globex.id, member.id],
    );
    await h.db.withTenant(acme.id, (tx) => tx.membership.deleteMany({ where: { userId: member.id } }));
    expect((await probe(`Bearer ${secret}`)).json().principal).toBeNull();

    const other = await createTestUser(h.db, acme.id, { role: 'admin' });
    const second = await mint(other, { kind: 'user', scopes: ['tenant:read'] });
    expect((await probe(`Bearer ${second.secret}`)).json().principal).toMatchObject({ userId: other.id });
    await h.asSuperuser('UPDATE users SET disabled_at = now() WHERE id = $1', [other.id]);
    expect((await probe(`Bearer ${second.secret}`)).json().principal).toBeNull();
  });
});

describe('refused tokens', () => {
  it('answers revoked, expired, unknown and malformed tokens with one identical 401', async () => {
    const revoked = await mint(owner, { kind: 'user', scopes: ['tenant:read'] });
    await h.db.withTenant(acme.id, (tx) =>
      tx.apiToken.update({ where: { id: revoked.token.id }, data: { revokedAt: new Date() } }),
    );
    const expired = await mint(
      owner,
      { kind: 'user', scopes: ['tenant:read'] },
      new Date(Date.now() + 3_600_000),
    );
    await h.asSuperuser(`UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      expired.token.id,
    ]);
    const live = await mint(owner, { kind: 'user', scopes: ['tenant:read'] });
    expect((await probeWrite(`Bearer ${live.secret}`)).statusCode).toBe(200);

    const candidates = [
      `Bearer ${revoked.secret}`,
      `Bearer ${expired.secret}`,
      `Bearer ${mintTokenSecret('user').secret}`,
      'Bearer not-a-token',
      `Basic ${live.secret}`,
    ];
    const responses = await Promise.all(candidates.map((authorization) => probeWrite(authorization)));
    expect(responses.map((r) => r.statusCode)).toEqual([401, 401, 401, 401, 401]);
    const bodies = new Set(responses.map((r) => r.payload));
    expect(bodies.size).toBe(1);
    expect(responses[0]!.json()).toMatchObject({ code: 'unauthenticated' });
  });

  it('never falls back to the session cookie when an Authorization header is present', async () => {
    const user = await createTestUser(h.db, acme.id, {
      email: `cookie-${randomUUID().slice(0, 8)}@example.test`,
      role: 'owner',
      passwordHash: await TEST_HASHER.hash('a long enough password'),
    });
    const signIn = await h.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: user.email, password: 'a long enough password' },
    });
    const cookie = String(signIn.headers['set-cookie']).split(';')[0] as string;
    expect(
      (await h.app.inject({ method: 'GET', url: PROBE_READ, headers: { cookie } })).json().principal,
    ).not.toBeNull();
    expect((await probe('Bearer ghu_bogus', { cookie })).json().principal).toBeNull();
  });
});
