import { createTestDatabase, TEST_DATABASE_TIMEOUT_MS, type TestDatabase } from '@gatehouse/testing';
import { createDatabase, type Database } from '../database';
import { UnsafeDatabaseRoleError } from './role-safety.guard';

// Creating databases and the first Prisma connection take seconds on a busy machine (jest's default is 5 s).
jest.setTimeout(TEST_DATABASE_TIMEOUT_MS);

let testDb: TestDatabase;
const open: Database[] = [];

function connect(url: string): Database {
  const db = createDatabase({ url, poolMax: 1 });
  open.push(db);
  return db;
}

beforeAll(async () => {
  testDb = await createTestDatabase();
});

afterAll(async () => {
  await Promise.all(open.map((db) => db.close()));
  await testDb?.drop();
});

describe('assertSafeAppRole', () => {
  it('passes for gatehouse_app', async () => {
    await expect(connect(testDb.appUrl).assertSafeAppRole()).resolves.toBeUndefined();
  });

  it('refuses the superuser with one line', async () => {
    const error = await connect(testDb.adminUrl)
      .assertSafeAppRole()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsafeDatabaseRoleError);
    expect(error).toMatchObject({ reason: 'superuser' });
    expect((error as Error).message).not.toContain('\n');
    expect((error as Error).message).toMatch(
      /^Refusing to start: database role "postgres" is or can become a superuser;/,
    );
  });

  it('refuses the owner of the tables with one line', async () => {
    const error = await connect(testDb.ownerUrl)
      .assertSafeAppRole()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsafeDatabaseRoleError);
    expect(error).toMatchObject({ role: 'gatehouse_owner', reason: 'owns_tables' });
    expect((error as Error).message).not.toContain('\n');
  });
});
