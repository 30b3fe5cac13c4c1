import type { EncryptionContext } from './encryption-context';

/**
 * Which columns hold envelope ciphertexts. Key rotation walks this list, and builds SQL from these names, so
 * every identifier is checked against a strict pattern (lowercase, unquoted-safe, at most 63 bytes like
 * Postgres' NAMEDATALEN) before it can be registered; callers still quote them.
 */
export type EncryptedColumn = {
  /** SQL table name; also the `table` of the EncryptionContext. */
  readonly table: string;
  /** SQL column (bytea) holding the ciphertext; also the `column` of the EncryptionContext. */
  readonly column: string;
  /** Primary key column; its text form is the `rowId` of the EncryptionContext. */
  readonly idColumn: string;
  /** Tenant column; its value is the `tenantId` of the EncryptionContext. */
  readonly tenantColumn: string;
};

export type RegisterColumnResult =
  | { ok: true; column: EncryptedColumn }
  | { ok: false; reason: 'invalid_identifier'; field: keyof EncryptedColumn }
  | { ok: false; reason: 'duplicate_column' };

const SQL_IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
const MAX_IDENTIFIER_LENGTH = 63;

export function isSafeSqlIdentifier(name: string): boolean {
  return typeof name === 'string' && name.length <= MAX_IDENTIFIER_LENGTH && SQL_IDENTIFIER.test(name);
}

export class EncryptedColumnRegistry {
  readonly #columns: EncryptedColumn[] = [];

  /** Builds a registry from a list written in code; an invalid or duplicate entry is a bug, so it throws. */
  static of(columns: readonly EncryptedColumn[]): EncryptedColumnRegistry {
    const registry = new EncryptedColumnRegistry();
    for (const column of columns) {
      const result = registry.register(column);
      if (!result.ok) {
        throw new Error(
          `cannot register encrypted column ${column.table}.${column.column}: ${result.reason}`,
        );
      }
    }
    return registry;
  }

  register(column: EncryptedColumn): RegisterColumnResult {
    const fields = ['table', 'column', 'idColumn', 'tenantColumn'] as const;
    for (const field of fields) {
      if (!isSafeSqlIdentifier(column[field])) return { ok: false, reason: 'invalid_identifier', field };
    }
    if (this.#columns.some((known) => known.table === column.table && known.column === column.column)) {
      return { ok: false, reason: 'duplicate_column' };
    }
    const entry: EncryptedColumn = Object.freeze({
      table: column.table,
      column: column.column,
      idColumn: column.idColumn,
      tenantColumn: column.tenantColumn,
    });
    this.#columns.push(entry);
    return { ok: true, column: entry };
  }

  list(): readonly EncryptedColumn[] {
    return Object.freeze([...this.#columns]);
  }
}

/** The context a cell of a registered column is encrypted under; writers and key rotation both use this. */
export function encryptionContextFor(
  column: EncryptedColumn,
  row: { readonly rowId: string; readonly tenantId: string },
): EncryptionContext {
  return { table: column.table, column: column.column, rowId: row.rowId, tenantId: row.tenantId };
}
