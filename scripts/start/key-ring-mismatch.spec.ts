import { keyRingMismatchWarning } from './key-ring-mismatch';

describe('keyRingMismatchWarning', () => {
  it('warns when a new dev key ring meets a database that was already set up', () => {
    const warning = keyRingMismatchWarning(
      { created: false, applied: [], alreadyApplied: 17 },
      { created: true },
      'gatehouse',
    );
    expect(warning).toMatch(/^the database gatehouse was set up before this key ring/);
    expect(warning).toContain('storage_unreadable');
    expect(warning).toContain('dropdb');
  });

  it('says nothing for a database created now, or a key ring that was kept', () => {
    expect(
      keyRingMismatchWarning({ created: true, applied: ['a'], alreadyApplied: 0 }, { created: true }, 'gatehouse'),
    ).toBeUndefined();
    expect(
      keyRingMismatchWarning({ created: false, applied: [], alreadyApplied: 17 }, { created: false }, 'gatehouse'),
    ).toBeUndefined();
  });

  it('says nothing when the existing database had no migration yet (nothing can have been sealed)', () => {
    expect(
      keyRingMismatchWarning({ created: false, applied: ['a'], alreadyApplied: 0 }, { created: true }, 'gatehouse'),
    ).toBeUndefined();
  });
});
