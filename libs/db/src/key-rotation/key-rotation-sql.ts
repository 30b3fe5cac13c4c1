import { isSafeSqlIdentifier, type EncryptedColumn } from '@gatehouse/crypto';

/**
 * SQL for key rotation. Identifiers come from the encrypted-column registry, which admits only
 * /^[a-z_][a-z0-9_]*$/; they are checked again here (the last step before string-building SQL) and quoted.
 * Every value is a bound parameter.
 */
function quoted(name: string): string {
  if (!isSafeSqlIdentifier(name)) throw new Error('unsafe SQL identifier');
  return `"${name}"`;
}

/**
 * Rows of one tenant whose ciphertext does not start with the active key's header.
 * Parameters: $1 tenant id, $2 header length, $3 header; for rows also $4 batch size and, with a cursor,
 * $5 the last row id of the previous batch (compared in the id column's own type, so the index is used).
 * The explicit tenant predicate doubles the row-level-security policy the transaction is under.
 */
export function staleRowsQuery(
  column: EncryptedColumn,
  options: { countOnly: boolean; withCursor: boolean },
): string {
  const table = quoted(column.table);
  const value = quoted(column.column);
  const id = quoted(column.idColumn);
  const tenant = quoted(column.tenantColumn);
  const where = `${tenant} = $1 AND ${value} IS NOT NULL AND substring(${value} from 1 for $2::int) <> $3::bytea`;
  if (options.countOnly) return `SELECT count(*) AS n FROM ${table} WHERE ${where}`;
  const cursor = options.withCursor ? ` AND ${id} > $5` : '';
  return `SELECT ${id}::text AS row_id, ${value} AS ciphertext FROM ${table} WHERE ${where}${cursor} ORDER BY ${id} LIMIT $4::int`;
}

/**
 * Writes the re-encrypted value only if the row still holds the ciphertext we read (compare-and-swap): a
 * concurrent writer wins and the row is counted as skipped.
 * Parameters: $1 new ciphertext, $2 row id, $3 tenant id, $4 old ciphertext.
 */
export function updateIfUnchangedStatement(column: EncryptedColumn): string {
  const value = quoted(column.column);
  return `UPDATE ${quoted(column.table)} SET ${value} = $1::bytea WHERE ${quoted(column.idColumn)} = $2 AND ${quoted(column.tenantColumn)} = $3 AND ${value} = $4::bytea`;
}
