import { parseKeyRing } from '@gatehouse/crypto';
import type { z } from 'zod';

/**
 * Adds one config issue when GATEHOUSE_KEYS / GATEHOUSE_ACTIVE_KEY_ID do not make a usable key ring. Shared by
 * the API's config and the rotate-keys command, so both refuse a bad ring with the same line. Messages carry
 * entry numbers and key ids only: key ids are not secret, key material never appears.
 */
export function addKeyRingIssues(keys: string, activeKeyId: string, ctx: z.RefinementCtx): void {
  const parsed = parseKeyRing({ keys, activeKeyId });
  if (parsed.ok) return;
  const issue = (variable: 'GATEHOUSE_KEYS' | 'GATEHOUSE_ACTIVE_KEY_ID', message: string) =>
    ctx.addIssue({ code: 'custom', path: [variable], message });
  switch (parsed.reason) {
    case 'bad_format':
      return issue('GATEHOUSE_KEYS', `entry ${parsed.entry + 1} is not kid:base64`);
    case 'wrong_key_length':
      return issue('GATEHOUSE_KEYS', `key ${parsed.keyId} (entry ${parsed.entry + 1}) is not 32 bytes`);
    case 'duplicate_key_id':
      return issue('GATEHOUSE_KEYS', `key id ${parsed.keyId} appears twice`);
    case 'active_key_missing':
      return issue('GATEHOUSE_ACTIVE_KEY_ID', 'names no key in GATEHOUSE_KEYS');
  }
}
