import { Client } from 'pg';
import { createDatabase } from '@gatehouse/db';
import { createTestDatabase, TEST_DATABASE_TIMEOUT_MS, type TestDatabase } from './test-database';
import { createTestTenant, createTestUser, createTestWorkspace } from './tenant.fixtures';

// Creating databases and the first Prisma connection take seconds on a busy machine (jest's default is 5 s).
jest.setTimeout(TEST_DATABASE_TIMEOUT_MS);

let first: TestDatabase;
let second: TestDatabase;

beforeAll(async () => {
  [first, second] = await Promise.all([createTestDatabase(), createTestDatabase()]);
});

afterAll(async () => {
  await Promise.all([first?.drop(), second?.drop()]);
});

async function whoAmI(url: string): Promise<{ user: string; db: string }> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query('SELECT current_user AS user, current_database() AS db')).rows[0];
  } finally {
    await client.end();
  }
}

describe('createTestDatabase', () => {
  it('gives each caller its own migrated database with app, owner and admin URLs', async () => {
    expect(first.name).not.toBe(second.name);
    expect(first.name).toMatch(/^gh_t_[0-9a-f]{12}$/);
    expect(await whoAmI(first.appUrl)).toEqual({ user: 'gatehouse_app', db: first.name });
    expect(await whoAmI(first.ownerUrl)).toEqual({ user: 'gatehouse_owner', db: first.name });
    expect(await whoAmI(first.adminUrl)).toEqual({ user: 'postgres', db: first.name });
    const client = new Client({ connectionString: first.ownerUrl });
    await client.connect();
    try {
      const applied = await client.query(
        'SELECT count(*)::int AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL',
      );
      expect(applied.rows[0].n).toBeGreaterThanOrEqual(2);
    } finally {
      await client.end();
    }
  });

  it('keeps rows of one test database out of another', async () => {
    const one = createDatabase({ url: first.appUrl, poolMax: 1 });
    const two = createDatabase({ url: second.appUrl, poolMax: 1 });
    try {
      const tenant = await createTestTenant(one, { slug: 'shared-slug' });
      await expect(createTestTenant(two, { slug: 'shared-slug' })).resolves.toMatchObject({
        slug: 'shared-slug',
      });
      expect(await two.withTenant(tenant.id, (tx) => tx.tenant.count())).toBe(0);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it('drop() removes the database', async () => {
    const extra = await createTestDatabase();
    await extra.drop();
    const admin = new Client({ connectionString: first.adminUrl });
    await admin.connect();
    try {
      expect((await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [extra.name])).rowCount).toBe(
        0,
      );
    } finally {
      await admin.end();
    }
  });
});

describe('tenant fixtures', () => {
  it('create a tenant, a member and a workspace visible in that tenant only', async () => {
    const db = createDatabase({ url: first.appUrl, poolMax: 1 });
    try {
      const tenant = await createTestTenant(db);
      const other = await createTestTenant(db);
      const user = await createTestUser(db, tenant.id, { role: 'approver' });
      const workspace = await createTestWorkspace(db, tenant.id, { trusted: true });
      const seen = await db.withTenant(tenant.id, async (tx) => ({
        tenant: (await tx.tenant.findUniqueOrThrow({ where: { id: tenant.id } })).slug,
        members: (await tx.membership.findMany({ include: { user: true } })).map((m) => [
          m.user.email,
          m.role,
        ]),
        workspaces: (await tx.workspace.findMany()).map((w) => [w.id, w.trusted]),
      }));
      expect(seen).toEqual({
        tenant: tenant.slug,
        members: [[user.email, 'approver']],
        workspaces: [[workspace.id, true]],
      });
      expect(await db.withTenant(other.id, (tx) => tx.workspace.count())).toBe(0);
    } finally {
      await db.close();
    }
  });
});
