import {
  TEST_DATABASE_TIMEOUT_MS,
  createTestDatabase,
  createTestTenant,
  createTestWorkspace,
  type TestDatabase,
} from '@gatehouse/testing';
import { Client } from 'pg';
import { createDatabase, type Database } from '../database';
import { findWorkspacePage } from '../reads/workspace.repository';
import { createTenantReadPipeline, type TenantReadPipeline } from './tenant-read-pipeline';

jest.setTimeout(TEST_DATABASE_TIMEOUT_MS);

// The one-round-trip read path (BEGIN READ ONLY; set_config; query; COMMIT pipelined) holds row-level security
// exactly as withTenant does, leaves nothing behind on its connection, refuses writes, and its typed reads
// answer what the Prisma query they replace answers.

let testDb: TestDatabase;
let db: Database;
let single: TenantReadPipeline;
let admin: Client;
let alpha: string;
let bravo: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 2 });
  // One connection: every read below reuses the connection of the one before it.
  single = createTenantReadPipeline({ url: testDb.appUrl, poolMax: 1 });
  admin = new Client({ connectionString: testDb.adminUrl });
  await admin.connect();
  alpha = (await createTestTenant(db)).id;
  bravo = (await createTestTenant(db)).id;
  for (let i = 0; i < 7; i += 1) await createTestWorkspace(db, alpha, { name: `alpha-${i}` });
  await createTestWorkspace(db, bravo, { name: 'bravo-0' });
  // Three workspaces created in the same millisecond: the id breaks the tie.
  await admin.query(
    `UPDATE workspaces SET created_at = '2026-01-01T00:00:00.000Z' WHERE name IN ('alpha-2', 'alpha-3', 'alpha-4')`,
  );
});

afterAll(async () => {
  await Promise.all([admin?.end(), db?.close(), single?.close()]);
  await testDb?.drop();
});

const tenantOf = { text: "SELECT current_setting('app.tenant_id', true) AS tenant", values: [] };

describe('readInTenant', () => {
  it("shows only the tenant's rows on a connection reused across tenants", async () => {
    const names = (rows: { name: string }[]) => rows.map((r) => r.name).sort();
    const workspaces = { text: 'SELECT name FROM workspaces', values: [] };
    expect(names(await single.read(alpha, '', workspaces))).toHaveLength(7);
    expect(names(await single.read(bravo, '', workspaces))).toEqual(['bravo-0']);
    expect(await single.read(alpha, '', tenantOf)).toEqual([{ tenant: alpha }]);
    const leftover = await single.read<{ n: number }>(bravo, '', {
      text: 'SELECT count(*)::int AS n FROM workspaces WHERE tenant_id = $1',
      values: [alpha],
    });
    expect(leftover).toEqual([{ n: 0 }]);
  });

  it('refuses writes (READ ONLY), and a failed read leaves the connection usable and clean', async () => {
    await expect(
      single.read(alpha, '', { text: "UPDATE workspaces SET name = 'x' RETURNING id", values: [] }),
    ).rejects.toMatchObject({ code: '25006' });
    await expect(single.read(alpha, '', { text: 'SELECT 1/0', values: [] })).rejects.toMatchObject({
      code: '22012',
    });
    expect(await single.read(bravo, '', tenantOf)).toEqual([{ tenant: bravo }]);
    const { rows } = await admin.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM workspaces WHERE name = 'x'",
    );
    expect(rows[0]?.n).toBe(0);
  });

  it('runs concurrent reads of different tenants on one connection without mixing them', async () => {
    const reads = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? alpha : bravo));
    const answers = await Promise.all(reads.map((tenant) => single.read(tenant, '', tenantOf)));
    expect(answers).toEqual(reads.map((tenant) => [{ tenant }]));
  });

  it('refuses a tenant id that is not a uuid before anything is sent', async () => {
    await expect(db.readInTenant("x', true); --", tenantOf)).rejects.toMatchObject({
      name: 'InvalidContextIdError',
    });
  });
});

describe('readManyInTenant', () => {
  it('answers several statements in order, in the tenant only, and a failed one fails all, leaving no context', async () => {
    const workspaces = { text: 'SELECT name FROM workspaces ORDER BY name', values: [] };
    const [alphaRows, context, count] = await single.readMany(alpha, '', [
      workspaces,
      tenantOf,
      { text: 'SELECT count(*)::int AS n FROM workspaces WHERE tenant_id = $1', values: [bravo] },
    ]);
    expect(alphaRows).toHaveLength(7);
    expect(context).toEqual([{ tenant: alpha }]);
    expect(count).toEqual([{ n: 0 }]);
    await expect(
      single.readMany(alpha, '', [tenantOf, { text: 'SELECT 1/0', values: [] }, workspaces]),
    ).rejects.toMatchObject({ code: '22012' });
    await expect(
      single.readMany(alpha, '', [{ text: "UPDATE workspaces SET name = 'y' RETURNING id", values: [] }]),
    ).rejects.toMatchObject({ code: '25006' });
    expect(await single.read(bravo, '', tenantOf)).toEqual([{ tenant: bravo }]);
    expect(await db.readManyInTenant(bravo, [workspaces])).toEqual([[{ name: 'bravo-0' }]]);
  });
});

describe('named statements', () => {
  it('are prepared once per connection and answer as unnamed ones, also after a unit that failed', async () => {
    const named = {
      name: 'pipeline-spec/workspaces',
      text: 'SELECT name FROM workspaces ORDER BY name',
      values: [],
    };
    const prepared = {
      text: "SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name = 'pipeline-spec/workspaces'",
      values: [],
    };
    const [first] = await single.readMany(alpha, '', [named]);
    expect(first).toHaveLength(7);
    await expect(
      single.readMany(alpha, '', [{ text: 'SELECT 1/0', values: [] }, named]),
    ).rejects.toMatchObject({
      code: '22012',
    });
    // The one connection: the second unit's statement is the prepared one, and in its own tenant.
    const [again, count] = await single.readMany(bravo, '', [named, prepared]);
    expect(again).toEqual([{ name: 'bravo-0' }]);
    expect(count).toEqual([{ n: 1 }]);
  });
});

describe('writeInTenant', () => {
  const nameOf = async (id: string) =>
    (await admin.query<{ name: string }>('SELECT name FROM workspaces WHERE id = $1', [id])).rows[0]?.name;

  it('commits its statements in one transaction, in the tenant only; a failure anywhere commits nothing', async () => {
    const [target] = await single.read<{ id: string; name: string }>(alpha, '', {
      text: "SELECT id, name FROM workspaces WHERE name = 'alpha-5'",
      values: [],
    });
    if (target === undefined) throw new Error('no alpha-5');
    const rename = (name: string) => ({
      text: 'UPDATE workspaces SET name = $1 WHERE id = $2 RETURNING name',
      values: [name, target.id],
    });
    const [locked, renamed, context] = await single.writeMany(alpha, '', [
      { text: 'SELECT name FROM workspaces WHERE id = $1 FOR UPDATE', values: [target.id] },
      rename('alpha-5-renamed'),
      tenantOf,
    ]);
    expect(locked).toEqual([{ name: 'alpha-5' }]);
    expect(renamed).toEqual([{ name: 'alpha-5-renamed' }]);
    expect(context).toEqual([{ tenant: alpha }]);
    expect(await nameOf(target.id)).toBe('alpha-5-renamed');
    // Another tenant's unit sees no row of alpha and changes none.
    expect(await single.writeMany(bravo, '', [rename('from-bravo')])).toEqual([[]]);
    expect(await nameOf(target.id)).toBe('alpha-5-renamed');
    // A failing statement rolls back the one before it, and the first failure is what rejects.
    await expect(
      single.writeMany(alpha, '', [rename('half-written'), { text: 'SELECT 1/0', values: [] }, tenantOf]),
    ).rejects.toMatchObject({ code: '22012' });
    expect(await nameOf(target.id)).toBe('alpha-5-renamed');
    // Through Database too; and the one connection is clean after all of it.
    expect(await db.writeInTenant(bravo, [tenantOf])).toEqual([[{ tenant: bravo }]]);
    expect(await single.read(bravo, '', tenantOf)).toEqual([{ tenant: bravo }]);
  });
});

describe('write connections', () => {
  it('a write unit never queues behind read units waiting for a read connection', async () => {
    // The one read connection held by a read that waits on an advisory lock the admin holds, and another read
    // queued behind it: the write still commits at once, on a connection of its own (decision 0122).
    await admin.query('SELECT pg_advisory_lock(4711)');
    const held = single.read(alpha, '', { text: 'SELECT pg_advisory_xact_lock_shared(4711)', values: [] });
    const queued = single.read(alpha, '', tenantOf);
    try {
      for (let waited = 0; ; waited += 20) {
        const { rows } = await admin.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
        );
        if ((rows[0]?.n ?? 0) >= 1) break;
        if (waited > 20_000) throw new Error('the read never waited on the advisory lock');
        await new Promise((done) => setTimeout(done, 20));
      }
      expect(await single.writeMany(bravo, '', [tenantOf])).toEqual([[{ tenant: bravo }]]);
    } finally {
      await admin.query('SELECT pg_advisory_unlock(4711)');
    }
    await held;
    expect(await queued).toEqual([{ tenant: alpha }]);
  });
});

describe('findWorkspacePage', () => {
  async function viaPrisma(
    tenantId: string,
    after: { at: Date; id: string } | null,
    take: number,
    ids: string[],
  ) {
    return db.withTenant(tenantId, (tx) =>
      tx.workspace.findMany({
        where: {
          ...(ids.length > 0 ? { id: { in: ids } } : {}),
          ...(after
            ? { OR: [{ createdAt: { gt: after.at } }, { createdAt: after.at, id: { gt: after.id } }] }
            : {}),
        },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        take,
      }),
    );
  }

  it('answers every page exactly as the Prisma query it replaces, ties and workspace binding included', async () => {
    const all = await viaPrisma(alpha, null, 100, []);
    expect(all).toHaveLength(7);
    const bound = [all[1]?.id, all[3]?.id, all[4]?.id].filter((id): id is string => id !== undefined);
    for (const onlyIds of [[], bound]) {
      for (let start = -1; start < all.length; start += 1) {
        const row = start >= 0 ? all[start] : undefined;
        const after = row ? { at: row.createdAt, id: row.id } : null;
        for (const take of [1, 2, 3, 8]) {
          const expected = await viaPrisma(alpha, after, take, onlyIds);
          expect(await findWorkspacePage(db, alpha, { after, take, onlyIds })).toEqual(expected);
        }
      }
    }
    expect(await findWorkspacePage(db, bravo, { after: null, take: 10, onlyIds: bound })).toEqual([]);
  });
});
