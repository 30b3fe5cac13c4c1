import {
  EncryptedColumnRegistry,
  encryptionContextFor,
  type EncryptedColumn,
} from './encrypted-column-registry';

const column: EncryptedColumn = {
  table: 'oauth_credentials',
  column: 'access_token_ct',
  idColumn: 'id',
  tenantColumn: 'tenant_id',
};

describe('EncryptedColumnRegistry', () => {
  it('registers and lists columns in order, frozen', () => {
    const registry = new EncryptedColumnRegistry();
    expect(registry.register(column)).toEqual({ ok: true, column });
    expect(registry.register({ ...column, column: 'refresh_token_ct' }).ok).toBe(true);
    const listed = registry.list();
    expect(listed.map((c) => c.column)).toEqual(['access_token_ct', 'refresh_token_ct']);
    expect(Object.isFrozen(listed)).toBe(true);
    expect(Object.isFrozen(listed[0])).toBe(true);
  });

  it('does not let a caller mutate a registered entry through its input object', () => {
    const input = { ...column };
    const registry = new EncryptedColumnRegistry();
    registry.register(input);
    input.table = 'users; drop table x';
    expect(registry.list()[0]?.table).toBe('oauth_credentials');
  });

  it.each([
    ['table', 'Users'],
    ['table', 'users;drop'],
    ['column', 'a"b'],
    ['column', '1col'],
    ['column', ''],
    ['idColumn', 'id '],
    ['idColumn', 'ïd'],
    ['tenantColumn', 'tenant-id'],
    ['tenantColumn', 'x'.repeat(64)],
  ] as const)('refuses %s %j', (field, value) => {
    const registry = new EncryptedColumnRegistry();
    expect(registry.register({ ...column, [field]: value })).toEqual({
      ok: false,
      reason: 'invalid_identifier',
      field,
    });
    expect(registry.list()).toHaveLength(0);
  });

  it('accepts a 63-character identifier', () => {
    expect(new EncryptedColumnRegistry().register({ ...column, table: 'x'.repeat(63) }).ok).toBe(true);
  });

  it('refuses the same table and column twice', () => {
    const registry = new EncryptedColumnRegistry();
    registry.register(column);
    expect(registry.register({ ...column, idColumn: 'other_id' })).toEqual({
      ok: false,
      reason: 'duplicate_column',
    });
  });

  it('of() throws on a bad entry written in code', () => {
    expect(() => EncryptedColumnRegistry.of([column, { ...column, table: 'Bad' }])).toThrow(
      /invalid_identifier/,
    );
    expect(EncryptedColumnRegistry.of([column]).list()).toEqual([column]);
  });

  it('derives the encryption context from the registered names', () => {
    expect(encryptionContextFor(column, { rowId: 'r1', tenantId: 't1' })).toEqual({
      table: 'oauth_credentials',
      column: 'access_token_ct',
      rowId: 'r1',
      tenantId: 't1',
    });
  });
});
