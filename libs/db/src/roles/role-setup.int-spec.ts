import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { readTestEnv, TEST_DATABASE_TIMEOUT_MS } from '@gatehouse/testing';
import { dropDatabase, ensureDatabase } from './database-setup';
import { setupDatabaseRoles } from './role-setup';

// Creating databases and the first Prisma connection take seconds on a busy machine (jest's default is 5 s).
jest.setTimeout(TEST_DATABASE_TIMEOUT_MS);

const env = readTestEnv();
let admin: Client;
const created: string[] = [];

beforeAll(async () => {
  admin = new Client({ connectionString: env.adminUrl });
  await admin.connect();
});

afterAll(async () => {
  await admin?.end();
  await Promise.all(created.map((name) => dropDatabase({ adminUrl: env.adminUrl, name })));
});

describe('setupDatabaseRoles', () => {
  it('succeeds when called by several processes at once, leaving the roles as specified', async () => {
    const passwords = { owner: env.ownerPassword, app: env.appPassword };
    await Promise.all(
      Array.from({ length: 4 }, () => setupDatabaseRoles({ adminUrl: env.adminUrl, passwords })),
    );
    const roles = await admin.query(
      `SELECT rolname, rolsuper, rolbypassrls, rolcanlogin, rolcreatedb, rolcreaterole
         FROM pg_roles WHERE rolname LIKE 'gatehouse\\_%' ORDER BY rolname`,
    );
    expect(roles.rows).toEqual([
      {
        rolname: 'gatehouse_app',
        rolsuper: false,
        rolbypassrls: false,
        rolcanlogin: true,
        rolcreatedb: false,
        rolcreaterole: false,
      },
      {
        rolname: 'gatehouse_auth',
        rolsuper: false,
        rolbypassrls: false,
        rolcanlogin: false,
        rolcreatedb: false,
        rolcreaterole: false,
      },
      {
        rolname: 'gatehouse_owner',
        rolsuper: false,
        rolbypassrls: false,
        rolcanlogin: true,
        rolcreatedb: false,
        rolcreaterole: false,
      },
    ]);
    const membership = await admin.query(
      `SELECT pg_has_role('gatehouse_owner', 'gatehouse_auth', 'MEMBER') AS owner_in_auth,
              pg_has_role('gatehouse_app', 'gatehouse_auth', 'MEMBER') AS app_in_auth,
              pg_has_role('gatehouse_app', 'gatehouse_owner', 'MEMBER') AS app_in_owner`,
    );
    expect(membership.rows[0]).toEqual({ owner_in_auth: true, app_in_auth: false, app_in_owner: false });
  });
});

describe('ensureDatabase', () => {
  it('creates once under concurrent callers, owned by gatehouse_owner, connectable by the app and owner only', async () => {
    const name = `gh_t_${randomBytes(6).toString('hex')}`;
    created.push(name);
    const results = await Promise.all([
      ensureDatabase({ adminUrl: env.adminUrl, name }),
      ensureDatabase({ adminUrl: env.adminUrl, name }),
    ]);
    expect(results.map((r) => r.created).sort()).toEqual([false, true]);
    const db = await admin.query(
      `SELECT pg_get_userbyid(datdba) AS owner,
              has_database_privilege('public', datname, 'CONNECT') AS public_connect,
              has_database_privilege('public', datname, 'TEMPORARY') AS public_temp,
              has_database_privilege('gatehouse_app', datname, 'CONNECT') AS app_connect
         FROM pg_database WHERE datname = $1`,
      [name],
    );
    expect(db.rows[0]).toEqual({
      owner: 'gatehouse_owner',
      public_connect: false,
      public_temp: false,
      app_connect: true,
    });
    await expect(ensureDatabase({ adminUrl: env.adminUrl, name })).resolves.toEqual({ created: false });
  });

  it('refuses a name that is not a plain identifier', async () => {
    await expect(
      ensureDatabase({ adminUrl: env.adminUrl, name: 'x"; DROP DATABASE postgres; --' }),
    ).rejects.toThrow('invalid database name');
  });
});
