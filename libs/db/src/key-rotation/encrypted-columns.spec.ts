import { defaultEncryptedColumns, ENCRYPTED_COLUMNS } from './encrypted-columns';

describe('ENCRYPTED_COLUMNS', () => {
  it('is frozen and every entry registers (valid identifiers, no duplicates)', () => {
    expect(Object.isFrozen(ENCRYPTED_COLUMNS)).toBe(true);
    expect(defaultEncryptedColumns().list()).toEqual(ENCRYPTED_COLUMNS);
  });

  it('gives each caller its own registry', () => {
    expect(defaultEncryptedColumns()).not.toBe(defaultEncryptedColumns());
  });
});
