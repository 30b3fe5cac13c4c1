import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import {
  EncryptedColumnRegistry,
  EnvelopeCipher,
  KeyRing,
  keyIdOf,
  type EncryptionContext,
} from '@gatehouse/crypto';
import { createTestDatabase, createTestTenant, type TestDatabase } from '@gatehouse/testing';
import { createDatabase, type Database } from '../database';
import { countRowsNotOnKey, rotateKeys, type RotationProgress } from './rotate-keys';

// Rotation against the real Postgres, as the app role (row-level security on), over a test-only table that
// looks like a real encrypted column: tenant_id, id, a nullable bytea ciphertext.

// jest-circus ignores the integration project's testTimeout (it reads the global one); on a loaded machine the
// first Prisma transaction alone can take seconds.
jest.setTimeout(60_000);

const TABLE = 'rotation_test_secrets';
const columns = EncryptedColumnRegistry.of([
  { table: TABLE, column: 'secret', idColumn: 'id', tenantColumn: 'tenant_id' },
]);
const materialA = randomBytes(32).toString('base64');
const materialB = randomBytes(32).toString('base64');

function cipherOf(keys: string, activeKeyId: string): EnvelopeCipher {
  const parsed = KeyRing.parse({ keys, activeKeyId });
  if (!parsed.ok) throw new Error(`fixture: ${parsed.reason}`);
  return new EnvelopeCipher(parsed.keyRing);
}
const onlyA = cipherOf(`a:${materialA}`, 'a');
const aAndB = cipherOf(`a:${materialA},b:${materialB}`, 'b');
const onlyB = cipherOf(`b:${materialB}`, 'b');

interface Row {
  tenantId: string;
  id: string;
  plaintext: string | null;
}

let testDb: TestDatabase;
let db: Database;
let owner: Client;
/** Superuser: bypasses row-level security, to clean up and to play an attacker with SQL access. */
let admin: Client;

const contextOf = (row: { tenantId: string; id: string }): EncryptionContext => ({
  table: TABLE,
  column: 'secret',
  rowId: row.id,
  tenantId: row.tenantId,
});

async function insertRows(tenantId: string, count: number, cipher: EnvelopeCipher): Promise<Row[]> {
  const rows: Row[] = [];
  for (let index = 0; index < count; index += 1) {
    const id = randomUUID();
    // Every seventh row has no value: rotation must leave NULLs alone.
    const plaintext = index % 7 === 3 ? null : `secret-${tenantId.slice(0, 8)}-${index}`;
    rows.push({ tenantId, id, plaintext });
  }
  await db.withTenant(tenantId, async (tx) => {
    for (const row of rows) {
      const value = row.plaintext === null ? null : cipher.encrypt(row.plaintext, contextOf(row));
      await tx.$executeRawUnsafe(
        `INSERT INTO ${TABLE} (tenant_id, id, secret) VALUES ($1::uuid, $2::uuid, $3::bytea)`,
        row.tenantId,
        row.id,
        value,
      );
    }
  });
  return rows;
}

async function readSecret(row: { tenantId: string; id: string }): Promise<Uint8Array | null> {
  const result = await db.withTenant(row.tenantId, (tx) =>
    tx.$queryRawUnsafe<{ secret: Uint8Array | null }[]>(
      `SELECT secret FROM ${TABLE} WHERE id = $1::uuid`,
      row.id,
    ),
  );
  if (result.length !== 1) throw new Error('row not found');
  return result[0]?.secret ?? null;
}

async function writeSecret(row: { tenantId: string; id: string }, value: Uint8Array): Promise<void> {
  await db.withTenant(row.tenantId, (tx) =>
    tx.$executeRawUnsafe(`UPDATE ${TABLE} SET secret = $1::bytea WHERE id = $2::uuid`, value, row.id),
  );
}

function text(result: ReturnType<EnvelopeCipher['decrypt']>): string {
  if (!result.ok) throw new Error(`decrypt failed: ${result.reason}`);
  return Buffer.from(result.plaintext).toString('utf8');
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  owner = new Client({ connectionString: testDb.ownerUrl });
  admin = new Client({ connectionString: testDb.adminUrl });
  await Promise.all([owner.connect(), admin.connect()]);
  // As the schema owner, like a migration would: RLS enabled AND forced, same policy shape as the real tables.
  await owner.query(`
    CREATE TABLE ${TABLE} (
      tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      id uuid PRIMARY KEY,
      secret bytea
    );
    ALTER TABLE ${TABLE} ENABLE ROW LEVEL SECURITY;
    ALTER TABLE ${TABLE} FORCE ROW LEVEL SECURITY;
    CREATE POLICY ${TABLE}_tenant ON ${TABLE}
      USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid)
      WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid);
    GRANT SELECT, INSERT, UPDATE, DELETE ON ${TABLE} TO gatehouse_app;
  `);
  db = createDatabase({ url: testDb.appUrl, poolMax: 3 });
});

afterAll(async () => {
  await Promise.all([owner?.end(), admin?.end(), db?.close()]);
  await testDb?.drop();
});

beforeEach(async () => {
  await admin.query(`DELETE FROM ${TABLE}`);
});

describe('rotateKeys', () => {
  it('moves every row of every tenant from key A to key B, after which A can be removed', async () => {
    const tenantA = await createTestTenant(db);
    const tenantB = await createTestTenant(db);
    const rows = [...(await insertRows(tenantA.id, 11, onlyA)), ...(await insertRows(tenantB.id, 8, onlyA))];
    const withValue = rows.filter((row) => row.plaintext !== null);

    expect(await countRowsNotOnKey({ database: db, cipher: aAndB, columns })).toMatchObject({
      activeKeyId: 'b',
      total: withValue.length,
    });

    const progress: RotationProgress[] = [];
    const result = await rotateKeys({
      database: db,
      cipher: aAndB,
      columns,
      batchSize: 3,
      onProgress: (event) => progress.push(event),
    });

    expect(result).toEqual({
      activeKeyId: 'b',
      completed: true,
      columns: [
        {
          table: TABLE,
          column: 'secret',
          scanned: withValue.length,
          rotated: withValue.length,
          skipped: 0,
          failed: { unknown_key: 0, malformed: 0, authentication_failed: 0 },
        },
      ],
    });
    // Small batches: several transactions per tenant, never one big one.
    const batchesOf = (tenantId: string) => progress.filter((event) => event.tenantId === tenantId);
    expect(batchesOf(tenantA.id).length).toBeGreaterThanOrEqual(4);
    expect(batchesOf(tenantB.id).length).toBeGreaterThanOrEqual(3);
    expect(progress.every((event) => event.batch.scanned <= 3)).toBe(true);
    expect(JSON.stringify(progress)).not.toContain('secret-');

    for (const row of rows) {
      const stored = await readSecret(row);
      if (row.plaintext === null) {
        expect(stored).toBeNull();
        continue;
      }
      if (stored === null) throw new Error('value lost');
      expect(keyIdOf(stored)).toBe('b');
      // A ring without key A reads everything.
      expect(text(onlyB.decrypt(stored, contextOf(row)))).toBe(row.plaintext);
    }
    expect(await countRowsNotOnKey({ database: db, cipher: onlyB, columns })).toEqual({
      activeKeyId: 'b',
      total: 0,
      columns: [{ table: TABLE, column: 'secret', count: 0 }],
    });

    // Idempotent: a second run finds nothing to do.
    const again = await rotateKeys({ database: db, cipher: aAndB, columns, batchSize: 3 });
    expect(again.columns[0]).toMatchObject({ scanned: 0, rotated: 0 });
  });

  it('a ciphertext copied into another row fails to decrypt, and rotation refuses to launder it', async () => {
    const tenant = await createTestTenant(db);
    const other = await createTestTenant(db);
    const [first, second] = await insertRows(tenant.id, 2, onlyA);
    const [foreign] = await insertRows(other.id, 1, onlyA);
    if (!first || !second || !foreign) throw new Error('fixture');

    const firstValue = await readSecret(first);
    if (firstValue === null) throw new Error('fixture');
    // Another row of the same tenant and column.
    await writeSecret(second, firstValue);
    expect(onlyA.decrypt(firstValue, contextOf(second))).toEqual({
      ok: false,
      reason: 'authentication_failed',
    });
    // Another tenant's row, written by someone with SQL access past row-level security.
    await admin.query(`UPDATE ${TABLE} SET secret = $1 WHERE id = $2`, [Buffer.from(firstValue), foreign.id]);
    const foreignValue = await readSecret(foreign);
    if (foreignValue === null) throw new Error('fixture');
    expect(onlyA.decrypt(foreignValue, contextOf(foreign))).toEqual({
      ok: false,
      reason: 'authentication_failed',
    });

    const result = await rotateKeys({ database: db, cipher: aAndB, columns, batchSize: 10 });
    expect(result.columns[0]).toMatchObject({
      scanned: 3,
      rotated: 1,
      failed: { unknown_key: 0, malformed: 0, authentication_failed: 2 },
    });
    // The moved values stay as they were (on key A), so the old key is visibly still needed.
    expect(keyIdOf((await readSecret(second)) ?? new Uint8Array())).toBe('a');
    expect(await countRowsNotOnKey({ database: db, cipher: aAndB, columns })).toMatchObject({ total: 2 });
    expect(text(onlyB.decrypt((await readSecret(first)) ?? new Uint8Array(), contextOf(first)))).toBe(
      first.plaintext,
    );
  });

  it('never overwrites a concurrent writer: the row is skipped and a later pass rotates the new value', async () => {
    const tenant = await createTestTenant(db);
    const rows = await insertRows(tenant.id, 3, onlyA);
    const target = rows[0];
    if (!target) throw new Error('fixture');

    // A concurrent writer (as the app) replaces the value and holds the row lock until we let it commit.
    const writer = new Client({ connectionString: testDb.appUrl });
    await writer.connect();
    try {
      await writer.query('BEGIN');
      await writer.query("SELECT set_config('app.tenant_id', $1, true)", [tenant.id]);
      const newer = onlyA.encrypt('written-concurrently', contextOf(target));
      await writer.query(`UPDATE ${TABLE} SET secret = $1 WHERE id = $2`, [Buffer.from(newer), target.id]);

      const rotation = rotateKeys({ database: db, cipher: aAndB, columns, batchSize: 10 });
      // Rotation read the old value (plain reads do not wait on row locks); its compare-and-swap now waits.
      await waitUntilBlockedOnLock(writer);
      await writer.query('COMMIT');
      const result = await rotation;

      expect(result.columns[0]).toMatchObject({ scanned: 3, rotated: 2, skipped: 1 });
      const stored = await readSecret(target);
      if (stored === null) throw new Error('value lost');
      expect(keyIdOf(stored)).toBe('a');
      expect(text(onlyA.decrypt(stored, contextOf(target)))).toBe('written-concurrently');

      const later = await rotateKeys({ database: db, cipher: aAndB, columns, batchSize: 10 });
      expect(later.columns[0]).toMatchObject({ scanned: 1, rotated: 1, skipped: 0 });
      expect(text(onlyB.decrypt((await readSecret(target)) ?? new Uint8Array(), contextOf(target)))).toBe(
        'written-concurrently',
      );
    } finally {
      await writer.end();
    }
  });

  it('stops between batches when aborted', async () => {
    const tenant = await createTestTenant(db);
    await insertRows(tenant.id, 6, onlyA);
    const controller = new AbortController();
    const result = await rotateKeys({
      database: db,
      cipher: aAndB,
      columns,
      batchSize: 2,
      signal: controller.signal,
      // Other tests' tenants come first and have no rows: abort after the first batch that did work.
      onProgress: (event) => {
        if (event.batch.scanned > 0) controller.abort();
      },
    });
    expect(result.completed).toBe(false);
    expect(result.columns[0]).toMatchObject({ scanned: 2, rotated: 2 });
    expect((await countRowsNotOnKey({ database: db, cipher: aAndB, columns })).total).toBe(3);
  });

  it('refuses a nonsensical batch size', async () => {
    await expect(rotateKeys({ database: db, cipher: aAndB, columns, batchSize: 0 })).rejects.toThrow(
      RangeError,
    );
  });
});

/**
 * Resolves once another backend of this database waits for a lock held by `holder`'s transaction. Polls
 * pg_locks: Postgres has no notification for "someone started waiting on my lock".
 */
async function waitUntilBlockedOnLock(holder: Client): Promise<void> {
  const pid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid;
  for (let attempt = 0; attempt < 2_000; attempt += 1) {
    const blocked = await admin.query(
      'SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND $1 = ANY(pg_blocking_pids(pid))',
      [pid],
    );
    if (blocked.rowCount) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('rotation never waited on the concurrent writer');
}
