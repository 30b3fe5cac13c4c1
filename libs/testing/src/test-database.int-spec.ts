import { Client } from 'pg';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { createDatabase, ensureDatabase, findMigrationsDir } from '@gatehouse/db';
import { dropTemplateCopies, listTemplateCopies, markTemplateCopy } from './template-copies';
import { TEMPLATE_DATABASE_ENV } from './template-database';
import { readTestEnv } from './test-env';
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

async function databaseExists(name: string): Promise<boolean> {
  const admin = new Client({ connectionString: readTestEnv().adminUrl });
  await admin.connect();
  try {
    return ((await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount ?? 0) > 0;
  } finally {
    await admin.end();
  }
}

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

  it("copies the run's migrated template and gives the copy the grants a database made from scratch gets", async () => {
    const template = process.env[TEMPLATE_DATABASE_ENV];
    expect(template).toMatch(/^gh_tmpl_[0-9a-f]{12}$/);
    const admin = new Client({ connectionString: first.adminUrl });
    await admin.connect();
    try {
      const databases = await admin.query(
        `SELECT datname, datdba::regrole::text AS owner, datistemplate, datallowconn,
                has_database_privilege('public', datname, 'CONNECT') AS public_connect,
                has_database_privilege('public', datname, 'TEMPORARY') AS public_temporary,
                has_database_privilege('gatehouse_app', datname, 'CONNECT') AS app_connect
           FROM pg_database WHERE datname = ANY($1) ORDER BY datname = $2 DESC`,
        [[first.name, template], first.name],
      );
      expect(databases.rows).toEqual([
        {
          datname: first.name,
          owner: 'gatehouse_owner',
          datistemplate: false,
          datallowconn: true,
          public_connect: false,
          public_temporary: false,
          app_connect: true,
        },
        // Closed to connections: PostgreSQL copies a template only while nobody is connected to it.
        expect.objectContaining({ datname: template, datistemplate: true, datallowconn: false }),
      ]);
      const migrations = readdirSync(findMigrationsDir(), { withFileTypes: true }).filter((e) =>
        e.isDirectory(),
      );
      const applied = await admin.query(
        'SELECT count(*)::int AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL',
      );
      expect(applied.rows[0].n).toBe(migrations.length);
      // Row-level security is table state inside the database, so the copy has it as the template had it.
      const protectedTables = await admin.query(
        `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = 'public' AND c.relname IN ('tenants', 'users', 'memberships')
            AND c.relrowsecurity AND c.relforcerowsecurity ORDER BY c.relname`,
      );
      expect(protectedTables.rows.map((r) => r.relname)).toEqual(['memberships', 'tenants', 'users']);
    } finally {
      await admin.end();
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

  it("drop() leaves a copy of the run's template to globalTeardown, which finds it by its mark", async () => {
    const extra = await createTestDatabase();
    await extra.drop();
    const template = process.env[TEMPLATE_DATABASE_ENV] ?? '';
    expect(await listTemplateCopies(readTestEnv(), template)).toEqual(
      expect.arrayContaining([first.name, second.name, extra.name]),
    );
    expect(await databaseExists(extra.name)).toBe(true);
  });

  it('dropTemplateCopies drops every copy of its template, and only those', async () => {
    const env = readTestEnv();
    const template = `gh_tmpl_${randomBytes(6).toString('hex')}`;
    const copies = [`gh_t_${randomBytes(6).toString('hex')}`, `gh_t_${randomBytes(6).toString('hex')}`];
    for (const name of copies) {
      await ensureDatabase({ adminUrl: env.adminUrl, name });
      await markTemplateCopy(env, name, template);
    }
    expect(await dropTemplateCopies(env, template)).toBe(2);
    for (const name of copies) expect(await databaseExists(name)).toBe(false);
    expect(await databaseExists(first.name)).toBe(true);
  });

  it('drop() removes a database migrated from zero (no template: a caller outside jest) at once', async () => {
    const template = process.env[TEMPLATE_DATABASE_ENV];
    delete process.env[TEMPLATE_DATABASE_ENV];
    let extra: TestDatabase;
    try {
      extra = await createTestDatabase();
    } finally {
      process.env[TEMPLATE_DATABASE_ENV] = template;
    }
    expect(await databaseExists(extra.name)).toBe(true);
    await extra.drop();
    expect(await databaseExists(extra.name)).toBe(false);
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
