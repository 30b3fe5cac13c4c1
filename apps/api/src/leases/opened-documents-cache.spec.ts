import { randomBytes, randomUUID } from 'node:crypto';
import { EnvelopeCipher, KeyRing } from '@gatehouse/crypto';
import { DefinitionCipher } from '../effective-view/definition-cipher';
import { OpenedDocumentsCache, type DefinitionOpener } from './opened-documents-cache';

// The cache answers exactly what the cipher answers for the same row and ciphertext, and decrypts only what it has
// not opened before: another row, another tenant, a changed or re-keyed ciphertext is opened by the cipher.

function realCipher(): DefinitionCipher {
  const ring = KeyRing.parse({ keys: `k1:${randomBytes(32).toString('base64')}`, activeKeyId: 'k1' });
  if (!ring.ok) throw new Error('key ring');
  return new DefinitionCipher(new EnvelopeCipher(ring.keyRing));
}

/** The real cipher, counting the documents it is asked to open. */
function counted(cipher: DefinitionCipher): DefinitionOpener & { opens: number } {
  const opener = {
    opens: 0,
    openDocument: (row: { id: string; tenantId: string }, ct: Uint8Array) => {
      opener.opens += 1;
      return cipher.openDocument(row, ct);
    },
    openValue: (row: { id: string; tenantId: string }, ct: Uint8Array) => cipher.openValue(row, ct),
    fingerprintKeyFor: (tenantId: string) => cipher.fingerprintKeyFor(tenantId),
  };
  return opener;
}

describe('OpenedDocumentsCache', () => {
  const row = { id: randomUUID(), tenantId: randomUUID() };

  it('opens a document once and answers the same text for the same row and ciphertext', () => {
    const cipher = realCipher();
    const inner = counted(cipher);
    const cache = new OpenedDocumentsCache(inner);
    const sealed = cipher.sealDocument(row, '{"servers":{}}');
    expect(cache.openDocument(row, sealed)).toBe('{"servers":{}}');
    expect(cache.openDocument(row, Uint8Array.from(sealed))).toBe('{"servers":{}}');
    expect(inner.opens).toBe(1);
  });

  it('opens a changed document afresh, and never answers a ciphertext for a row it is not bound to', () => {
    const cipher = realCipher();
    const inner = counted(cipher);
    const cache = new OpenedDocumentsCache(inner);
    const first = cipher.sealDocument(row, 'first');
    expect(cache.openDocument(row, first)).toBe('first');
    expect(cache.openDocument(row, cipher.sealDocument(row, 'second'))).toBe('second');
    // The same bytes copied to another row or tenant do not open there, cached or not (the AAD binds them).
    expect(cache.openDocument({ ...row, id: randomUUID() }, first)).toBeUndefined();
    expect(cache.openDocument({ ...row, tenantId: randomUUID() }, first)).toBeUndefined();
    expect(inner.opens).toBe(4);
  });

  it('never remembers a document that does not open, and forgets the least recently used past its bound', () => {
    const cipher = realCipher();
    const inner = counted(cipher);
    const cache = new OpenedDocumentsCache(inner, 2);
    const tampered = cipher.sealDocument(row, 'text');
    tampered[tampered.length - 1] = (tampered[tampered.length - 1] ?? 0) ^ 1;
    expect(cache.openDocument(row, tampered)).toBeUndefined();
    expect(cache.openDocument(row, tampered)).toBeUndefined();
    expect(inner.opens).toBe(2);
    const [a, b, c] = ['a', 'b', 'c'].map((text) => cipher.sealDocument(row, text));
    if (a === undefined || b === undefined || c === undefined) throw new Error('sealed');
    cache.openDocument(row, a);
    cache.openDocument(row, b);
    cache.openDocument(row, a); // a is now the most recently used
    cache.openDocument(row, c); // b goes
    inner.opens = 0;
    expect([cache.openDocument(row, a), cache.openDocument(row, c)]).toEqual(['a', 'c']);
    expect(inner.opens).toBe(0);
    expect(cache.openDocument(row, b)).toBe('b');
    expect(inner.opens).toBe(1);
  });
});
