import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, rm, appendFile, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { readTestEnv, TEST_DATABASE_TIMEOUT_MS } from '@gatehouse/testing';
import { deriveConnectionUrl } from '../roles/connection-url';
import { DATABASE_ROLES } from '../roles/database-roles';
import { dropDatabase, ensureDatabase } from '../roles/database-setup';
import { findMigrationsDir, readMigrationFiles } from './migration-files';
import { runMigrations } from './migration-runner';

// Creating databases and the first Prisma connection take seconds on a busy machine (jest's default is 5 s).
jest.setTimeout(TEST_DATABASE_TIMEOUT_MS);

const env = readTestEnv();
const created: string[] = [];
const tempDirs: string[] = [];
let migrationNames: string[];

/** An empty database owned by gatehouse_owner; returns the owner's URL. */
async function emptyDatabase(): Promise<string> {
  const name = `gh_t_${randomBytes(6).toString('hex')}`;
  await ensureDatabase({ adminUrl: env.adminUrl, name });
  created.push(name);
  return deriveConnectionUrl(env.adminUrl, {
    database: name,
    user: DATABASE_ROLES.owner,
    password: env.ownerPassword,
  });
}

/** A copy of the real migrations directory to tamper with. */
async function copyOfMigrations(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gh-migrations-'));
  tempDirs.push(dir);
  await cp(findMigrationsDir(), dir, { recursive: true });
  return dir;
}

async function history(
  url: string,
): Promise<{ migration_name: string; applied_steps_count: number; finished: boolean }[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query(
      'SELECT migration_name, applied_steps_count, finished_at IS NOT NULL AS finished FROM _prisma_migrations ORDER BY migration_name',
    );
    return result.rows;
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  migrationNames = (await readMigrationFiles(findMigrationsDir())).map((m) => m.name);
});

afterAll(async () => {
  await Promise.all(created.map((name) => dropDatabase({ adminUrl: env.adminUrl, name })));
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('runMigrations', () => {
  it('applies every migration once, recording Prisma-compatible rows, and is idempotent', async () => {
    const url = await emptyDatabase();
    const first = await runMigrations({ url, migrationsDir: findMigrationsDir() });
    expect(first).toEqual({ applied: migrationNames, alreadyApplied: [] });
    const second = await runMigrations({ url, migrationsDir: findMigrationsDir() });
    expect(second).toEqual({ applied: [], alreadyApplied: migrationNames });
    expect(await history(url)).toEqual(
      migrationNames.map((name) => ({ migration_name: name, applied_steps_count: 1, finished: true })),
    );
  });

  it('records the sha256 of each file as Prisma does', async () => {
    const url = await emptyDatabase();
    await runMigrations({ url, migrationsDir: findMigrationsDir() });
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      const rows = (
        await client.query('SELECT migration_name, checksum FROM _prisma_migrations ORDER BY migration_name')
      ).rows;
      const files = await readMigrationFiles(findMigrationsDir());
      expect(rows).toEqual(files.map((f) => ({ migration_name: f.name, checksum: f.checksum })));
      expect(rows[0]?.checksum).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      await client.end();
    }
  });

  it('lets two concurrent runners both succeed with one application', async () => {
    const url = await emptyDatabase();
    const results = await Promise.all([
      runMigrations({ url, migrationsDir: findMigrationsDir() }),
      runMigrations({ url, migrationsDir: findMigrationsDir() }),
    ]);
    const appliedCounts = results.map((r) => r.applied.length).sort();
    expect(appliedCounts).toEqual([0, migrationNames.length]);
    expect((await history(url)).map((r) => r.migration_name)).toEqual(migrationNames);
  });

  it('refuses an applied migration whose file was edited, naming it', async () => {
    const url = await emptyDatabase();
    const dir = await copyOfMigrations();
    await runMigrations({ url, migrationsDir: dir });
    const edited = migrationNames[0] ?? '';
    await appendFile(join(dir, edited, 'migration.sql'), '\n-- a harmless-looking edit\n');
    await expect(runMigrations({ url, migrationsDir: dir })).rejects.toMatchObject({
      name: 'MigrationChecksumMismatchError',
      code: 'migration_checksum_mismatch',
      migrationName: edited,
      message: expect.stringContaining(edited),
    });
  });

  it('refuses when the database has a migration the directory does not', async () => {
    const url = await emptyDatabase();
    await runMigrations({ url, migrationsDir: findMigrationsDir() });
    const dir = await copyOfMigrations();
    const last = migrationNames[migrationNames.length - 1] ?? '';
    await rm(join(dir, last), { recursive: true });
    await expect(runMigrations({ url, migrationsDir: dir })).rejects.toMatchObject({
      code: 'migration_unknown_in_database',
      migrationName: last,
    });
  });

  it('rolls a failing migration back entirely, records nothing, and applies it once fixed', async () => {
    const url = await emptyDatabase();
    const dir = await copyOfMigrations();
    const broken = '99990101000000_broken';
    await mkdir(join(dir, broken));
    await writeFile(
      join(dir, broken, 'migration.sql'),
      'CREATE TABLE "half_done" (id int);\nSELECT 1 / 0;\n',
    );
    await expect(runMigrations({ url, migrationsDir: dir })).rejects.toMatchObject({
      code: 'migration_failed',
      migrationName: broken,
      message: expect.stringContaining('division by zero'),
    });
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      const table = await client.query("SELECT to_regclass('public.half_done') AS t");
      expect(table.rows[0]?.t).toBeNull();
    } finally {
      await client.end();
    }
    expect((await history(url)).map((r) => r.migration_name)).toEqual(migrationNames);
    await writeFile(join(dir, broken, 'migration.sql'), 'CREATE TABLE "half_done" (id int);\n');
    await expect(runMigrations({ url, migrationsDir: dir })).resolves.toEqual({
      applied: [broken],
      alreadyApplied: migrationNames,
    });
  });
});
