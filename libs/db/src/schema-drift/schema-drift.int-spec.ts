import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Client } from 'pg';
import { createTestDatabase, TEST_DATABASE_TIMEOUT_MS, type TestDatabase } from '@gatehouse/testing';
import { findMigrationsDir } from '../migration/migration-files';
import { introspectSchema } from './database-schema-introspect';
import { parsePrismaSchema, type ExpectedSchema } from './prisma-schema-parser';

// Creating databases and the first Prisma connection take seconds on a busy machine (jest's default is 5 s).
jest.setTimeout(TEST_DATABASE_TIMEOUT_MS);

// The migrations are hand-written SQL (no Prisma schema engine here), so this test is what keeps them and
// schema.prisma saying the same thing.

let testDb: TestDatabase;
let owner: Client;

beforeAll(async () => {
  testDb = await createTestDatabase();
  owner = new Client({ connectionString: testDb.ownerUrl });
  await owner.connect();
});

afterAll(async () => {
  await owner?.end();
  await testDb?.drop();
});

async function expectedSchema(): Promise<ExpectedSchema> {
  const path = join(dirname(findMigrationsDir()), 'schema.prisma');
  return parsePrismaSchema(await readFile(path, 'utf8'));
}

/** Order-insensitive form: sets of tables, columns, keys and indexes compare as sorted lists. */
function normalize(schema: ExpectedSchema): unknown {
  const byJson = <T>(items: T[]): T[] =>
    [...items].sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
  return {
    enums: byJson(schema.enums),
    tables: byJson(
      schema.tables.map((t) => ({
        ...t,
        columns: byJson(t.columns),
        uniques: byJson(t.uniques),
        indexes: byJson(t.indexes),
        foreignKeys: byJson(t.foreignKeys),
      })),
    ),
  };
}

describe('schema drift', () => {
  it('the migrated database matches schema.prisma (tables, columns, types, nullability, keys, uniques, indexes, FKs)', async () => {
    const expected = await expectedSchema();
    expect(expected.tables.length).toBeGreaterThanOrEqual(9);
    expect(normalize(await introspectSchema(owner))).toEqual(normalize(expected));
  });

  it('notices a change the schema does not have (so the comparison above can fail)', async () => {
    await owner.query('BEGIN');
    try {
      await owner.query('ALTER TABLE "workspaces" ALTER COLUMN "name" DROP NOT NULL');
      await owner.query('ALTER TABLE "users" ADD COLUMN "nickname" TEXT');
      await owner.query('DROP INDEX "audit_events_tenant_id_action_idx"');
      const drifted = await introspectSchema(owner);
      const expected = await expectedSchema();
      expect(normalize(drifted)).not.toEqual(normalize(expected));
      const workspaces = drifted.tables.find((t) => t.name === 'workspaces');
      expect(workspaces?.columns.find((c) => c.name === 'name')?.nullable).toBe(true);
      expect(drifted.tables.find((t) => t.name === 'users')?.columns.map((c) => c.name)).toContain(
        'nickname',
      );
    } finally {
      await owner.query('ROLLBACK');
    }
  });
});
