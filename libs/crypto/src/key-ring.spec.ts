import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { KeyRing, parseKeyRing } from './key-ring';

const keyA = randomBytes(32).toString('base64');
const keyB = randomBytes(32).toString('base64');

describe('KeyRing.parse', () => {
  it('parses ids and keys and keeps the active id', () => {
    const result = KeyRing.parse({ keys: `a:${keyA}, b-2:${keyB}`, activeKeyId: 'b-2' });
    if (!result.ok) throw new Error(`unexpected ${result.reason}`);
    expect(result.keyRing.activeKeyId).toBe('b-2');
    expect(result.keyRing.keyIds).toEqual(['a', 'b-2']);
    expect(result.keyRing.has('a')).toBe(true);
    expect(result.keyRing.has('c')).toBe(false);
  });

  it.each([
    ['empty config', '', 0],
    ['no separator', `a${keyA}`, 0],
    ['empty key id', `:${keyA}`, 0],
    ['empty key', 'a:', 0],
    ['not base64', `a:${keyA.slice(0, -4)}!!!!`, 0],
    ['unpadded base64', `a:${keyA.replace(/=+$/, '')}`, 0],
    ['key id with spaces', `a b:${keyA}`, 0],
    ['non-ascii key id', `clé:${keyA}`, 0],
    ['trailing comma', `a:${keyA},`, 1],
    ['second entry bad', `a:${keyA},b`, 1],
  ])('refuses %s as bad_format', (_name, keys, entry) => {
    expect(parseKeyRing({ keys, activeKeyId: 'a' })).toEqual({ ok: false, reason: 'bad_format', entry });
  });

  it.each([16, 24, 31, 33, 64])('refuses a %i-byte key as wrong_key_length', (length) => {
    const keys = `a:${keyA},short:${randomBytes(length).toString('base64')}`;
    expect(parseKeyRing({ keys, activeKeyId: 'a' })).toEqual({
      ok: false,
      reason: 'wrong_key_length',
      entry: 1,
      keyId: 'short',
    });
  });

  it('refuses a duplicate key id', () => {
    expect(parseKeyRing({ keys: `a:${keyA},a:${keyB}`, activeKeyId: 'a' })).toEqual({
      ok: false,
      reason: 'duplicate_key_id',
      entry: 1,
      keyId: 'a',
    });
  });

  it('refuses an active id that is not in the ring', () => {
    expect(parseKeyRing({ keys: `a:${keyA}`, activeKeyId: 'b' })).toEqual({
      ok: false,
      reason: 'active_key_missing',
      keyId: 'b',
    });
  });

  it('never puts key material in a failure', () => {
    const results = [
      parseKeyRing({ keys: `a:${keyA},a:${keyB}`, activeKeyId: 'a' }),
      parseKeyRing({ keys: `a:${keyA},b:${keyB}`, activeKeyId: 'c' }),
      parseKeyRing({ keys: `a:${keyA}!`, activeKeyId: 'a' }),
    ];
    for (const result of results) {
      expect(JSON.stringify(result)).not.toContain(keyA.slice(0, 16));
      expect(JSON.stringify(result)).not.toContain(keyB.slice(0, 16));
    }
  });
});

describe('KeyRing key material', () => {
  const parsed = KeyRing.parse({ keys: `a:${keyA},b:${keyB}`, activeKeyId: 'a' });
  if (!parsed.ok) throw new Error('fixture');
  const ring = parsed.keyRing;
  const hexA = Buffer.from(keyA, 'base64').toString('hex');
  const rendered = [
    JSON.stringify(ring),
    JSON.stringify({ nested: { ring } }),
    String(ring),
    `${ring}`,
    inspect(ring),
    inspect(ring, { showHidden: true, depth: Infinity, getters: true }),
    inspect({ nested: [ring] }, { showHidden: true, depth: Infinity }),
    Object.keys(ring).join(','),
  ];

  it.each(rendered.map((text, index) => [index, text]))('rendering %i shows ids only', (_index, text) => {
    expect(text).not.toContain(keyA);
    expect(text).not.toContain(keyB);
    expect(text).not.toContain(hexA);
  });

  it('renders the ids', () => {
    expect(JSON.parse(JSON.stringify(ring))).toEqual({ activeKeyId: 'a', keyIds: ['a', 'b'] });
    expect(inspect(ring)).toBe('KeyRing(active=a, keys=a,b)');
  });
});
