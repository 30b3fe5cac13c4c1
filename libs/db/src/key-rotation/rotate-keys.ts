import {
  encryptionContextFor,
  type DecryptFailureReason,
  type EncryptedColumn,
  type EncryptedColumnRegistry,
  type EnvelopeCipher,
} from '@gatehouse/crypto';
import type { Database } from '../database';
import { listTenantIds } from '../lookups/auth.repository';
import type { TenantTx } from '../tenancy/prisma-client';
import { staleRowsQuery, updateIfUnchangedStatement } from './key-rotation-sql';

export interface RotateKeysOptions {
  /** The app role's database: every batch runs under row-level security in its tenant. */
  database: Database;
  /** Its active key is the target; its ring must still hold the keys being retired. */
  cipher: EnvelopeCipher;
  columns: EncryptedColumnRegistry;
  /** Rows per transaction: keeps each transaction (and the row locks its updates take) short. */
  batchSize: number;
  /** Checked between batches; an aborted run returns what it did so far with `completed: false`. */
  signal?: AbortSignal;
  onProgress?: (progress: RotationProgress) => void;
}

export interface RotationCounts {
  /** Rows found on another key (or an older format). */
  scanned: number;
  /** Rows re-encrypted onto the active key. */
  rotated: number;
  /** Rows a concurrent writer changed between our read and write: left alone; a later pass picks them up. */
  skipped: number;
  /** Rows that could not be decrypted, by reason: left alone (and still on the old key). */
  failed: Record<DecryptFailureReason, number>;
}

export interface ColumnRotationResult extends RotationCounts {
  table: string;
  column: string;
}

export interface RotateKeysResult {
  activeKeyId: string;
  /** False when the signal aborted the run. */
  completed: boolean;
  columns: ColumnRotationResult[];
}

/** Reported after every batch: ids and counts only. */
export interface RotationProgress {
  table: string;
  column: string;
  tenantId: string;
  batch: RotationCounts;
  columnTotals: RotationCounts;
}

/**
 * Re-encrypts every registered column onto the cipher's active key, online: tenant by tenant, in keyset-paginated
 * batches, each batch in its own short tenant-scoped transaction, without table locks. Each row is written with a
 * compare-and-swap on its old ciphertext, so a concurrent writer is never overwritten.
 */
export async function rotateKeys(options: RotateKeysOptions): Promise<RotateKeysResult> {
  const { database, cipher, columns, signal, onProgress } = options;
  const batchSize = validBatchSize(options.batchSize);
  const header = cipher.activeKeyHeader();
  const tenantIds = await listTenantIds(database);
  const results: ColumnRotationResult[] = [];
  for (const column of columns.list()) {
    const totals = emptyCounts();
    results.push({ table: column.table, column: column.column, ...totals });
    const result = results[results.length - 1] as ColumnRotationResult;
    for (const tenantId of tenantIds) {
      let cursor: string | null = null;
      for (;;) {
        if (signal?.aborted) return { activeKeyId: cipher.activeKeyId, completed: false, columns: results };
        const batch: BatchResult = await database.withTenant(tenantId, (tx) =>
          rotateBatch(tx, { column, cipher, header, tenantId, cursor, batchSize }),
        );
        addCounts(result, batch.counts);
        onProgress?.({
          table: column.table,
          column: column.column,
          tenantId,
          batch: batch.counts,
          columnTotals: copyCounts(result),
        });
        if (batch.lastRowId === null) break;
        cursor = batch.lastRowId;
      }
    }
  }
  return { activeKeyId: cipher.activeKeyId, completed: true, columns: results };
}

export interface CountRowsNotOnKeyOptions {
  database: Database;
  /** Rows whose ciphertext does not start with this cipher's active key header are counted. */
  cipher: EnvelopeCipher;
  columns: EncryptedColumnRegistry;
}

export interface CountRowsNotOnKeyResult {
  activeKeyId: string;
  /** 0 means every registered value is on the active key: the other keys can be removed from the ring. */
  total: number;
  columns: { table: string; column: string; count: number }[];
}

/** Counts values not on the active key, across every tenant, as the app role (so under row-level security). */
export async function countRowsNotOnKey(options: CountRowsNotOnKeyOptions): Promise<CountRowsNotOnKeyResult> {
  const { database, cipher, columns } = options;
  const header = cipher.activeKeyHeader();
  const tenantIds = await listTenantIds(database);
  const counts: CountRowsNotOnKeyResult['columns'] = [];
  for (const column of columns.list()) {
    let count = 0;
    for (const tenantId of tenantIds) {
      const query = staleRowsQuery(column, { countOnly: true, withCursor: false });
      const rows = await database.withTenant(tenantId, (tx) =>
        tx.$queryRawUnsafe<{ n: bigint | number }[]>(query, tenantId, header.length, header),
      );
      count += Number(rows[0]?.n ?? 0);
    }
    counts.push({ table: column.table, column: column.column, count });
  }
  return {
    activeKeyId: cipher.activeKeyId,
    total: counts.reduce((sum, c) => sum + c.count, 0),
    columns: counts,
  };
}

interface BatchInput {
  column: EncryptedColumn;
  cipher: EnvelopeCipher;
  header: Uint8Array;
  tenantId: string;
  cursor: string | null;
  batchSize: number;
}

interface BatchResult {
  counts: RotationCounts;
  /** The last row id seen, or null when the batch was the last one. */
  lastRowId: string | null;
}

async function rotateBatch(tx: TenantTx, input: BatchInput): Promise<BatchResult> {
  const { column, cipher, header, tenantId, cursor, batchSize } = input;
  const query = staleRowsQuery(column, { countOnly: false, withCursor: cursor !== null });
  const params: unknown[] = [tenantId, header.length, header, batchSize];
  if (cursor !== null) params.push(cursor);
  const rows = await tx.$queryRawUnsafe<{ row_id: string; ciphertext: unknown }[]>(query, ...params);
  const counts = emptyCounts();
  for (const row of rows) {
    counts.scanned += 1;
    if (!(row.ciphertext instanceof Uint8Array)) {
      // A registered column that is not bytea is a registry bug, not a data problem.
      throw new TypeError(`${column.table}.${column.column} is not a bytea column`);
    }
    const reencrypted = cipher.reencrypt(
      row.ciphertext,
      encryptionContextFor(column, { rowId: row.row_id, tenantId }),
    );
    if (!reencrypted.ok) {
      counts.failed[reencrypted.reason] += 1;
      continue;
    }
    const updated = await tx.$executeRawUnsafe(
      updateIfUnchangedStatement(column),
      reencrypted.ciphertext,
      row.row_id,
      tenantId,
      row.ciphertext,
    );
    if (updated === 1) counts.rotated += 1;
    else counts.skipped += 1;
  }
  const last = rows[rows.length - 1];
  return { counts, lastRowId: rows.length === batchSize && last !== undefined ? last.row_id : null };
}

function validBatchSize(batchSize: number): number {
  if (!Number.isSafeInteger(batchSize) || batchSize < 1 || batchSize > 10_000) {
    throw new RangeError('batchSize must be an integer between 1 and 10000');
  }
  return batchSize;
}

function emptyCounts(): RotationCounts {
  return {
    scanned: 0,
    rotated: 0,
    skipped: 0,
    failed: { unknown_key: 0, malformed: 0, authentication_failed: 0 },
  };
}

function copyCounts(counts: RotationCounts): RotationCounts {
  return {
    scanned: counts.scanned,
    rotated: counts.rotated,
    skipped: counts.skipped,
    failed: { ...counts.failed },
  };
}

function addCounts(into: RotationCounts, add: RotationCounts): void {
  into.scanned += add.scanned;
  into.rotated += add.rotated;
  into.skipped += add.skipped;
  for (const reason of Object.keys(add.failed) as DecryptFailureReason[])
    into.failed[reason] += add.failed[reason];
}
