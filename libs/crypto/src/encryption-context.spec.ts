import fc from 'fast-check';
import { encodeEncryptionContext, type EncryptionContext } from './encryption-context';

// A tiny alphabet makes near-collisions (shifted boundaries, equal fields) common; graphemes cover Unicode.
const text = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', 'b', '\u0000', '\u0001', 'é'), maxLength: 4 }),
  fc.string({ unit: 'grapheme' }),
);
const context: fc.Arbitrary<EncryptionContext> = fc.record({
  table: text,
  column: text,
  rowId: text,
  tenantId: fc.option(text, { nil: undefined }),
});

function same(a: EncryptionContext, b: EncryptionContext): boolean {
  return a.table === b.table && a.column === b.column && a.rowId === b.rowId && a.tenantId === b.tenantId;
}

describe('encodeEncryptionContext', () => {
  it('is injective: two contexts encode equally exactly when they are equal', () => {
    fc.assert(
      fc.property(context, context, (a, b) => {
        const equalBytes = Buffer.from(encodeEncryptionContext(a)).equals(
          Buffer.from(encodeEncryptionContext(b)),
        );
        expect(equalBytes).toBe(same(a, b));
      }),
      { numRuns: 2000 },
    );
  });

  it('does not confuse shifted boundaries or a missing tenant with an empty one', () => {
    const encodings = [
      { table: 'ab', column: 'c', rowId: '1' },
      { table: 'a', column: 'bc', rowId: '1' },
      { table: 'a', column: 'b', rowId: 'c1' },
      { table: 'a', column: 'b', rowId: 'c', tenantId: '1' },
      { table: 'a', column: 'b', rowId: 'c1', tenantId: '' },
    ].map((c) => Buffer.from(encodeEncryptionContext(c)).toString('hex'));
    expect(new Set(encodings).size).toBe(encodings.length);
  });

  it('treats an explicit undefined tenant like an absent one', () => {
    expect(encodeEncryptionContext({ table: 't', column: 'c', rowId: '1', tenantId: undefined })).toEqual(
      encodeEncryptionContext({ table: 't', column: 'c', rowId: '1' }),
    );
  });

  it('refuses strings that UTF-8 cannot represent faithfully', () => {
    expect(() => encodeEncryptionContext({ table: 't', column: 'c', rowId: '\uD800' })).toThrow(TypeError);
    expect(() => encodeEncryptionContext({ table: 't', column: 'c', rowId: 'x\uDC00' })).toThrow(TypeError);
    expect(() => encodeEncryptionContext({ table: 't', column: 'c', rowId: '\uD83D\uDE00' })).not.toThrow();
  });
});
