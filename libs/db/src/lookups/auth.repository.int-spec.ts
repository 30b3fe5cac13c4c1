import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createTestDatabase, TEST_DATABASE_TIMEOUT_MS, type TestDatabase } from '@gatehouse/testing';
import { createDatabase, type Database } from '../database';
import { insertGatewayToken, revokeGatewayToken } from '../operator/gateway-token-operator';
import { seedTenantRows, type TenantRows } from '../tenancy/tenant-rows.fixtures';
import {
  findLiveSessionBySecretHash,
  findLoginByEmail,
  findTenantIdBySlug,
  findTokenBySecretHash,
  listTenantIds,
} from './auth.repository';

// Creating databases and the first Prisma connection take seconds on a busy machine (jest's default is 5 s).
jest.setTimeout(TEST_DATABASE_TIMEOUT_MS);

let testDb: TestDatabase;
let db: Database;
let admin: Client;
let a: TenantRows;
let b: TenantRows;
let c: TenantRows;

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 2 });
  admin = new Client({ connectionString: testDb.adminUrl });
  await admin.connect();
  a = await seedTenantRows(db, 'alpha');
  b = await seedTenantRows(db, 'bravo');
  c = await seedTenantRows(db, 'charlie');
});

afterAll(async () => {
  await Promise.all([db?.close(), admin?.end()]);
  await testDb?.drop();
});

describe('definer lookups', () => {
  it('the app cannot read api_tokens directly without a tenant', async () => {
    expect(await db.withoutTenant((tx) => tx.apiToken.count())).toBe(0);
    expect(
      await db.withoutTenant((tx) => tx.apiToken.findUnique({ where: { secretHash: b.tokenSecretHash } })),
    ).toBeNull();
  });

  it('gh_auth_token finds a token of tenant B with no tenant set, and bumps last_used_at once', async () => {
    const token = await findTokenBySecretHash(db, b.tokenSecretHash);
    expect(token).toMatchObject({
      id: b.tokenId,
      tenantId: b.tenantId,
      userId: b.userId,
      kind: 'user',
      scopes: ['definitions:read'],
      workspaceIds: [],
      prefix: 'gh_u_abc',
      revokedAt: null,
      tenantSlug: b.slug,
      role: 'owner',
      userDisabledAt: null,
    });
    expect(token?.lastUsedAt).toBeInstanceOf(Date);
    const again = await findTokenBySecretHash(db, b.tokenSecretHash);
    expect(again?.lastUsedAt?.getTime()).toBe(token?.lastUsedAt?.getTime());
  });

  it('gh_auth_token returns nothing for an unknown hash and returns revoked tokens without touching them', async () => {
    expect(await findTokenBySecretHash(db, randomBytes(32))).toBeNull();
    // As the superuser (subject to no policy).
    const update = await admin.query(
      'UPDATE api_tokens SET revoked_at = now(), last_used_at = NULL WHERE id = $1',
      [a.tokenId],
    );
    expect(update.rowCount).toBe(1);
    const revoked = await findTokenBySecretHash(db, a.tokenSecretHash);
    expect(revoked?.revokedAt).toBeInstanceOf(Date);
    expect(revoked?.lastUsedAt).toBeNull();
  });

  it('finds gateway tokens (no tenant), which only the owner can create and revoke', async () => {
    const secretHash = randomBytes(32);
    const id = await insertGatewayToken({
      ownerUrl: testDb.ownerUrl,
      name: 'edge-1',
      scopes: ['tokens:introspect', 'leases:write'],
      pool: 'edge',
      secretHash,
      prefix: 'gh_g_1',
      expiresAt: null,
    });
    expect(await findTokenBySecretHash(db, secretHash)).toMatchObject({
      id,
      tenantId: null,
      kind: 'gateway',
      pool: 'edge',
      tenantSlug: null,
      role: null,
      userDisabledAt: null,
    });
    expect(await revokeGatewayToken({ ownerUrl: testDb.ownerUrl, id })).toBe(true);
    expect(await revokeGatewayToken({ ownerUrl: testDb.ownerUrl, id })).toBe(false);
    expect(await revokeGatewayToken({ ownerUrl: testDb.ownerUrl, id: b.tokenId })).toBe(false);
    expect((await findTokenBySecretHash(db, secretHash))?.revokedAt).toBeInstanceOf(Date);
  });

  it("gh_auth_token returns the user's CURRENT role and disabled_at, not the ones at minting", async () => {
    // As the superuser (subject to no policy), as another admin's command would.
    await admin.query("UPDATE memberships SET role = 'member' WHERE id = $1", [c.membershipId]);
    expect(await findTokenBySecretHash(db, c.tokenSecretHash)).toMatchObject({ role: 'member' });
    await admin.query('UPDATE users SET disabled_at = now() WHERE id = $1', [c.userId]);
    expect((await findTokenBySecretHash(db, c.tokenSecretHash))?.userDisabledAt).toBeInstanceOf(Date);
    await admin.query('DELETE FROM memberships WHERE id = $1', [c.membershipId]);
    expect(await findTokenBySecretHash(db, c.tokenSecretHash)).toMatchObject({
      id: c.tokenId,
      tenantSlug: c.slug,
      role: null,
    });
  });

  it('gh_auth_session returns live sessions only, with the slug of and the role in the session tenant', async () => {
    expect(await findLiveSessionBySecretHash(db, b.sessionSecretHash)).toMatchObject({
      id: b.sessionId,
      tenantId: b.tenantId,
      tenantSlug: b.slug,
      userId: b.userId,
      userDisabledAt: null,
      role: 'owner',
    });
    await admin.query("UPDATE sessions SET expires_at = now() - interval '1 second' WHERE id = $1", [
      a.sessionId,
    ]);
    expect(await findLiveSessionBySecretHash(db, a.sessionSecretHash)).toBeNull();
  });

  it('gh_auth_login returns the password hash and every membership', async () => {
    const login = await findLoginByEmail(db, b.email);
    expect(login).toEqual({
      userId: b.userId,
      passwordHash: 'hash',
      disabledAt: null,
      memberships: [{ tenantId: b.tenantId, tenantSlug: b.slug, role: 'owner' }],
    });
    expect(await findLoginByEmail(db, 'nobody@example.test')).toBeNull();
  });

  it('lists tenant ids and finds a tenant by slug without a tenant set', async () => {
    expect((await listTenantIds(db)).sort()).toEqual([a.tenantId, b.tenantId, c.tenantId].sort());
    expect(await findTenantIdBySlug(db, b.slug)).toBe(b.tenantId);
    expect(await findTenantIdBySlug(db, 'no-such-tenant')).toBeNull();
  });

  it('the definer functions are owned by gatehouse_auth, pin search_path, and are not executable by PUBLIC', async () => {
    const result = await admin.query<{
      name: string;
      owner: string;
      secdef: boolean;
      config: string[] | null;
      public_exec: boolean;
    }>(
      `SELECT p.proname AS name, pg_get_userbyid(p.proowner) AS owner, p.prosecdef AS secdef, p.proconfig AS config,
              has_function_privilege('public', p.oid, 'EXECUTE') AS public_exec
         FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'public' AND p.proname LIKE 'gh\\_%' ORDER BY p.proname`,
    );
    // Named, not counted: a new definer function (it sees past row-level security) is added here on purpose.
    expect(result.rows.map((row) => row.name)).toEqual([
      'gh_auth_login',
      'gh_auth_session',
      'gh_auth_token',
      'gh_invitation_by_secret',
      'gh_lease_tenant',
      'gh_operator_insert_gateway_token',
      'gh_operator_revoke_gateway_token',
      'gh_revocations_head',
      'gh_revocations_mark_published',
      'gh_revocations_sequence',
      'gh_revocations_since',
      'gh_revocations_unpublished',
      'gh_tenant_id_by_slug',
      'gh_tenant_ids',
      'gh_tenants_with_unrecorded_expiries',
      'gh_workspace_tenant',
    ]);
    for (const fn of result.rows) {
      expect(fn).toEqual({
        name: fn.name,
        owner: 'gatehouse_auth',
        secdef: true,
        config: ['search_path=pg_catalog, public, pg_temp'],
        public_exec: false,
      });
    }
  });
});
