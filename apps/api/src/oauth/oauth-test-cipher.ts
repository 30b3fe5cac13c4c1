// A key ring of one random key for tests (and the refresh test's child processes, which get the same key).
import { randomBytes } from 'node:crypto';
import { EnvelopeCipher, KeyRing } from '@gatehouse/crypto';
import { OAuthCipher } from '../oauth-credentials/oauth-cipher';

export function testKeyMaterial(): string {
  return `test:${randomBytes(32).toString('base64')}`;
}

export function testOAuthCipher(keys: string = testKeyMaterial()): OAuthCipher {
  const parsed = KeyRing.parse({ keys, activeKeyId: 'test' });
  if (!parsed.ok) throw new Error(`test key ring refused (${parsed.reason})`);
  return new OAuthCipher(new EnvelopeCipher(parsed.keyRing));
}
