import type { Client } from 'pg';
import type {
  ExpectedColumn,
  ExpectedForeignKey,
  ExpectedSchema,
  ExpectedTable,
} from './prisma-schema-parser';

/** Tables the runner owns, not schema.prisma. */
const BOOKKEEPING_TABLES = new Set(['_prisma_migrations']);

/** Reads the `public` schema of a migrated database in the parser's shape, for the schema-drift test. */
export async function introspectSchema(client: Client): Promise<ExpectedSchema> {
  const tables = await client.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const columns = await client.query<{
    table_name: string;
    column_name: string;
    udt_name: string;
    is_nullable: 'YES' | 'NO';
    datetime_precision: number | null;
    column_default: string | null;
  }>(
    `SELECT table_name, column_name, udt_name, is_nullable, datetime_precision, column_default
       FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
  );
  // Unique indexes and primary keys straight from pg_index: Prisma declares @unique as a unique index, which
  // information_schema.table_constraints does not list.
  const indexes = await client.query<{
    table_name: string;
    columns: string[];
    is_unique: boolean;
    is_primary: boolean;
  }>(
    `SELECT t.relname AS table_name, i.indisunique AS is_unique, i.indisprimary AS is_primary,
            array(SELECT a.attname FROM unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
                    JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.ord)::text[] AS columns
       FROM pg_index i
       JOIN pg_class t ON t.oid = i.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = 'public'`,
  );
  const foreignKeys = await client.query<{
    table_name: string;
    columns: string[];
    referenced_table: string;
    referenced_columns: string[];
    on_delete: string;
    on_update: string;
  }>(
    `SELECT t.relname AS table_name, r.relname AS referenced_table,
            array(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY AS k(attnum, ord)
                    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum ORDER BY k.ord)::text[] AS columns,
            array(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY AS k(attnum, ord)
                    JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum ORDER BY k.ord)::text[]
              AS referenced_columns,
            CASE c.confdeltype WHEN 'c' THEN 'CASCADE' WHEN 'r' THEN 'RESTRICT' WHEN 'a' THEN 'NO ACTION'
                               WHEN 'n' THEN 'SET NULL' WHEN 'd' THEN 'SET DEFAULT' END AS on_delete,
            CASE c.confupdtype WHEN 'c' THEN 'CASCADE' WHEN 'r' THEN 'RESTRICT' WHEN 'a' THEN 'NO ACTION'
                               WHEN 'n' THEN 'SET NULL' WHEN 'd' THEN 'SET DEFAULT' END AS on_update
       FROM pg_constraint c
       JOIN pg_class t ON t.oid = c.conrelid
       JOIN pg_class r ON r.oid = c.confrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE c.contype = 'f' AND n.nspname = 'public'`,
  );
  const enums = await client.query<{ name: string; values: string[] }>(
    `SELECT t.typname AS name, array_agg(e.enumlabel ORDER BY e.enumsortorder)::text[] AS values
       FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace n ON n.oid = t.typnamespace
      WHERE n.nspname = 'public' GROUP BY t.typname ORDER BY t.typname`,
  );

  const result: ExpectedTable[] = tables.rows
    .filter((t) => !BOOKKEEPING_TABLES.has(t.table_name))
    .map(({ table_name: name }) => {
      const tableIndexes = indexes.rows.filter((i) => i.table_name === name);
      const cols: ExpectedColumn[] = columns.rows
        .filter((c) => c.table_name === name)
        .map((c) => ({
          name: c.column_name,
          udtName: c.udt_name,
          nullable: c.is_nullable === 'YES',
          precision: c.udt_name.startsWith('timestamp') ? c.datetime_precision : null,
          hasDefault: c.column_default !== null,
        }));
      const fks: ExpectedForeignKey[] = foreignKeys.rows
        .filter((f) => f.table_name === name)
        .map((f) => ({
          columns: f.columns,
          referencedTable: f.referenced_table,
          referencedColumns: f.referenced_columns,
          onDelete: f.on_delete,
          onUpdate: f.on_update,
        }));
      return {
        name,
        columns: cols,
        primaryKey: tableIndexes.find((i) => i.is_primary)?.columns ?? [],
        uniques: tableIndexes.filter((i) => i.is_unique && !i.is_primary).map((i) => i.columns),
        indexes: tableIndexes.filter((i) => !i.is_unique).map((i) => i.columns),
        foreignKeys: fks,
      };
    });
  return { tables: result, enums: enums.rows };
}
