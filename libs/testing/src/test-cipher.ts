// A key ring of one random key for tests (and for child processes of a test, given the same key material).
import { randomBytes } from 'node:crypto';
import { EnvelopeCipher, KeyRing } from '@gatehouse/crypto';

export function testKeyMaterial(): string {
  return `test:${randomBytes(32).toString('base64')}`;
}

export function testEnvelopeCipher(keys: string = testKeyMaterial()): EnvelopeCipher {
  const parsed = KeyRing.parse({ keys, activeKeyId: 'test' });
  if (!parsed.ok) throw new Error(`test key ring refused (${parsed.reason})`);
  return new EnvelopeCipher(parsed.keyRing);
}
