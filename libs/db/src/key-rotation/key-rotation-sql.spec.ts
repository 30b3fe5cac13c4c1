import type { EncryptedColumn } from '@gatehouse/crypto';
import { staleRowsQuery, updateIfUnchangedStatement } from './key-rotation-sql';

const column: EncryptedColumn = {
  table: 'secrets',
  column: 'value_ct',
  idColumn: 'id',
  tenantColumn: 'tenant_id',
};

describe('key rotation SQL', () => {
  it('quotes identifiers and binds every value', () => {
    expect(staleRowsQuery(column, { countOnly: false, withCursor: true })).toBe(
      'SELECT "id"::text AS row_id, "value_ct" AS ciphertext FROM "secrets" WHERE "tenant_id" = $1 AND ' +
        '"value_ct" IS NOT NULL AND substring("value_ct" from 1 for $2::int) <> $3::bytea AND "id" > $5 ' +
        'ORDER BY "id" LIMIT $4::int',
    );
    expect(staleRowsQuery(column, { countOnly: true, withCursor: false })).toBe(
      'SELECT count(*) AS n FROM "secrets" WHERE "tenant_id" = $1 AND "value_ct" IS NOT NULL AND ' +
        'substring("value_ct" from 1 for $2::int) <> $3::bytea',
    );
    expect(updateIfUnchangedStatement(column)).toBe(
      'UPDATE "secrets" SET "value_ct" = $1::bytea WHERE "id" = $2 AND "tenant_id" = $3 AND "value_ct" = $4::bytea',
    );
  });

  it.each(['table', 'column', 'idColumn', 'tenantColumn'] as const)(
    'refuses an unsafe %s even if it bypassed the registry',
    (field) => {
      const unsafe = { ...column, [field]: 'x" OR 1=1 --' };
      expect(() => staleRowsQuery(unsafe, { countOnly: false, withCursor: false })).toThrow(
        'unsafe SQL identifier',
      );
      expect(() => updateIfUnchangedStatement(unsafe)).toThrow('unsafe SQL identifier');
    },
  );
});
