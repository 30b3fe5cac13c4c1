import { randomBytes } from 'node:crypto';
import { EnvelopeCipher, KeyRing } from '@gatehouse/crypto';
import type { Logger } from '@gatehouse/platform';
import type { ApiConfig } from '../config/api.config';
import { DefinitionCipher } from '../effective-view/definition-cipher';

// The cipher lives beneath the features (the effective view opens what it resolves); this path stays for the
// boot-time factory below and for the callers outside the definition features that name it here.
export { DefinitionCipher };

/**
 * The key ring from GATEHOUSE_KEYS / GATEHOUSE_ACTIVE_KEY_ID (the config already validated it, and production
 * requires it). Without it (development, test) an ephemeral ring is generated with a warning: what is stored
 * under it cannot be read after a restart, which is acceptable only on a developer's machine.
 */
export function createDefinitionCipher(config: ApiConfig, logger: Logger): DefinitionCipher {
  if (config.GATEHOUSE_KEYS !== undefined && config.GATEHOUSE_ACTIVE_KEY_ID !== undefined) {
    const parsed = KeyRing.parse({
      keys: config.GATEHOUSE_KEYS,
      activeKeyId: config.GATEHOUSE_ACTIVE_KEY_ID,
    });
    if (!parsed.ok) throw new Error(`definitions: key ring refused (${parsed.reason})`);
    return new DefinitionCipher(new EnvelopeCipher(parsed.keyRing));
  }
  if (config.NODE_ENV === 'production')
    throw new Error('definitions: GATEHOUSE_KEYS is required in production');
  logger.warn(
    'GATEHOUSE_KEYS is not set: definition sources and variables are encrypted under an ephemeral key and become unreadable after a restart',
  );
  const ring = KeyRing.parse({
    keys: `ephemeral:${randomBytes(32).toString('base64')}`,
    activeKeyId: 'ephemeral',
  });
  if (!ring.ok) throw new Error('definitions: could not build the ephemeral key ring');
  return new DefinitionCipher(new EnvelopeCipher(ring.keyRing));
}
