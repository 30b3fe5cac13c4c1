import { createDatabase, type Database } from '@gatehouse/db';
import { createTestDatabase, TEST_DATABASE_TIMEOUT_MS, type TestDatabase } from '@gatehouse/testing';
import { seedDemo } from './seed';

// Creating databases and the first Prisma connection take seconds on a busy machine (jest's default is 5 s).
jest.setTimeout(TEST_DATABASE_TIMEOUT_MS);

let testDb: TestDatabase;
let db: Database;

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 1 });
});

afterAll(async () => {
  await db?.close();
  await testDb?.drop();
});

describe('seedDemo', () => {
  it('creates the demo tenant and workspace once, then finds them again', async () => {
    const first = await seedDemo(db);
    expect(first.created).toBe(true);
    const second = await seedDemo(db);
    expect(second).toEqual({ ...first, created: false });
    const seen = await db.withTenant(first.tenantId, async (tx) => ({
      tenants: (await tx.tenant.findMany()).map((t) => t.slug),
      workspaces: (await tx.workspace.findMany()).map((w) => w.id),
    }));
    expect(seen).toEqual({ tenants: ['demo'], workspaces: [first.workspaceId] });
  });
});
