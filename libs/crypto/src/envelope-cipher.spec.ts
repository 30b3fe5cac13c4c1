import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import fc from 'fast-check';
import type { EncryptionContext } from './encryption-context';
import { EnvelopeCipher } from './envelope-cipher';
import { envelopeHeader, keyIdOf } from './envelope-format';
import { KeyRing } from './key-ring';

const materialA = randomBytes(32).toString('base64');
const materialB = randomBytes(32).toString('base64');

function ring(keys: string, activeKeyId: string): KeyRing {
  const parsed = KeyRing.parse({ keys, activeKeyId });
  if (!parsed.ok) throw new Error(`fixture: ${parsed.reason}`);
  return parsed.keyRing;
}

const onA = new EnvelopeCipher(ring(`key-a:${materialA}`, 'key-a'));
const onBWithA = new EnvelopeCipher(ring(`key-a:${materialA},key-b:${materialB}`, 'key-b'));
const onBOnly = new EnvelopeCipher(ring(`key-b:${materialB}`, 'key-b'));

const cell: EncryptionContext = {
  table: 'oauth_credentials',
  column: 'access_token_ct',
  rowId: '8f1d2c3e-0000-4000-8000-000000000001',
  tenantId: '11111111-1111-4111-8111-111111111111',
};
const text = (bytes: Uint8Array): string => Buffer.from(bytes).toString('utf8');

describe('EnvelopeCipher', () => {
  it('round-trips strings and bytes, including empty values', () => {
    const secret = 'gho_super-secret-token';
    const sealed = onA.encrypt(secret, cell);
    expect(onA.decrypt(sealed, cell)).toEqual({ ok: true, plaintext: expect.any(Uint8Array) });
    const opened = onA.decrypt(sealed, cell);
    expect(opened.ok && text(opened.plaintext)).toBe(secret);

    const bytes = Uint8Array.from([0, 1, 2, 255]);
    const openedBytes = onA.decrypt(onA.encrypt(bytes, cell), cell);
    expect(openedBytes.ok && [...openedBytes.plaintext]).toEqual([0, 1, 2, 255]);

    const openedEmpty = onA.decrypt(onA.encrypt('', cell), cell);
    expect(openedEmpty.ok && openedEmpty.plaintext.length).toBe(0);
  });

  it('round-trips any value under any context (property)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 512 }),
        fc.record({
          table: fc.string(),
          column: fc.string(),
          rowId: fc.string(),
          tenantId: fc.option(fc.uuid(), { nil: undefined }),
        }),
        (plaintext, context) => {
          const opened = onA.decrypt(onA.encrypt(plaintext, context), context);
          expect(opened.ok && Buffer.from(opened.plaintext).equals(Buffer.from(plaintext))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never writes the plaintext into the ciphertext and uses a fresh data key and IV per value', () => {
    const secret = 'the-same-secret-value';
    const first = onA.encrypt(secret, cell);
    const second = onA.encrypt(secret, cell);
    expect(Buffer.from(first).equals(Buffer.from(second))).toBe(false);
    expect(Buffer.from(first).includes(Buffer.from(secret))).toBe(false);
    // header + wrapped key (iv, tag, 32-byte key) + data iv, tag, and ciphertext as long as the plaintext
    expect(first.length).toBe(2 + 'key-a'.length + 12 + 16 + 32 + 12 + 16 + secret.length);
  });

  it('starts every ciphertext with the version and key id', () => {
    const sealed = onBWithA.encrypt('x', cell);
    expect(keyIdOf(sealed)).toBe('key-b');
    expect(onBWithA.keyIdOf(sealed)).toBe('key-b');
    expect(Buffer.from(sealed.subarray(0, 7)).equals(Buffer.from(onBWithA.activeKeyHeader()))).toBe(true);
    expect([...envelopeHeader('key-b')]).toEqual([1, 5, ...Buffer.from('key-b')]);
    expect(keyIdOf(Uint8Array.of(1, 5))).toBeUndefined();
  });

  describe('binds the ciphertext to its cell', () => {
    const sealed = onA.encrypt('secret', cell);
    it.each<[string, EncryptionContext]>([
      ['another row', { ...cell, rowId: '8f1d2c3e-0000-4000-8000-000000000002' }],
      ['another column', { ...cell, column: 'refresh_token_ct' }],
      ['another table', { ...cell, table: 'oauth_clients' }],
      ['another tenant', { ...cell, tenantId: '22222222-2222-4222-8222-222222222222' }],
      ['no tenant', { table: cell.table, column: cell.column, rowId: cell.rowId }],
      ['shifted field boundary', { ...cell, table: 'oauth_credentialsa', column: 'ccess_token_ct' }],
    ])('%s fails authentication', (_name, other) => {
      expect(onA.decrypt(sealed, other)).toEqual({ ok: false, reason: 'authentication_failed' });
    });
  });

  it('fails when any single byte is changed', () => {
    const sealed = onBWithA.encrypt('a short secret', cell);
    for (let index = 0; index < sealed.length; index += 1) {
      for (const mask of [0x01, 0x80, 0xff]) {
        const tampered = Uint8Array.from(sealed);
        tampered[index] = (tampered[index] ?? 0) ^ mask;
        const result = onBWithA.decrypt(tampered, cell);
        expect({ index, mask, ok: result.ok }).toEqual({ index, mask, ok: false });
      }
    }
  });

  it('classifies failures', () => {
    const sealed = onBWithA.encrypt('secret', cell);
    expect(onA.decrypt(sealed, cell)).toEqual({ ok: false, reason: 'unknown_key' });
    expect(onA.decrypt(new Uint8Array(0), cell)).toEqual({ ok: false, reason: 'malformed' });
    expect(onBWithA.decrypt(sealed.subarray(0, sealed.length - 3), cell)).toEqual({
      ok: false,
      reason: 'authentication_failed',
    });
    expect(onA.decrypt(sealed.subarray(0, 40), cell)).toEqual({ ok: false, reason: 'malformed' });
    const otherVersion = Uint8Array.from(sealed);
    otherVersion[0] = 2;
    expect(onBWithA.decrypt(otherVersion, cell)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('fails authentication when a ciphertext is truncated or extended (property)', () => {
    const sealed = onA.encrypt('some longer secret value', cell);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: sealed.length - 1 }),
        fc.uint8Array({ maxLength: 4 }),
        (cut, extra) => {
          const changed = Buffer.concat([sealed.subarray(0, cut), extra]);
          fc.pre(!changed.equals(Buffer.from(sealed)));
          expect(onA.decrypt(changed, cell).ok).toBe(false);
        },
      ),
    );
  });

  it('a key with the right id but other material fails authentication', () => {
    const impostor = new EnvelopeCipher(ring(`key-a:${randomBytes(32).toString('base64')}`, 'key-a'));
    expect(impostor.decrypt(onA.encrypt('secret', cell), cell)).toEqual({
      ok: false,
      reason: 'authentication_failed',
    });
  });

  it('re-encrypts onto the active key, after which the old key is not needed', () => {
    const old = onA.encrypt('rotate me', cell);
    const rotated = onBWithA.reencrypt(old, cell);
    if (!rotated.ok) throw new Error(rotated.reason);
    expect(keyIdOf(rotated.ciphertext)).toBe('key-b');
    const opened = onBOnly.decrypt(rotated.ciphertext, cell);
    expect(opened.ok && text(opened.plaintext)).toBe('rotate me');
    // The data key is fresh: the rotated value shares no wrapped key or IV with the old one.
    expect(Buffer.from(rotated.ciphertext).includes(Buffer.from(old.subarray(7, 7 + 60)))).toBe(false);
  });

  it('refuses to re-encrypt what it cannot authenticate', () => {
    const old = onA.encrypt('x', cell);
    expect(onBWithA.reencrypt(old, { ...cell, rowId: 'other' })).toEqual({
      ok: false,
      reason: 'authentication_failed',
    });
    expect(onBOnly.reencrypt(old, cell)).toEqual({ ok: false, reason: 'unknown_key' });
  });

  it('keeps key material and plaintext out of JSON, strings and inspection', () => {
    const hexA = Buffer.from(materialA, 'base64').toString('hex');
    for (const rendered of [
      JSON.stringify(onA),
      JSON.stringify({ cipher: onBWithA }),
      String(onBWithA),
      inspect(onBWithA, { showHidden: true, depth: Infinity, getters: true }),
      inspect({ nested: onA }, { showHidden: true, depth: Infinity }),
    ]) {
      expect(rendered).not.toContain(materialA);
      expect(rendered).not.toContain(materialB);
      expect(rendered).not.toContain(hexA);
    }
    expect(JSON.parse(JSON.stringify(onBWithA))).toEqual({ activeKeyId: 'key-b' });
    expect(inspect(onBWithA)).toBe('EnvelopeCipher(active=key-b)');
  });

  it('a failed decryption says only why, never what', () => {
    const sealed = onA.encrypt('do-not-leak-me', cell);
    const result = onA.decrypt(sealed, { ...cell, rowId: 'x' });
    expect(JSON.stringify(result)).toBe('{"ok":false,"reason":"authentication_failed"}');
  });
});
