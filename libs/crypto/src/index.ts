export { KeyRing, parseKeyRing, isValidKeyId, KEY_LENGTH_BYTES } from './key-ring';
export type { KeyRingConfig, KeyRingParseResult, KeyRingParseFailure } from './key-ring';
export { EnvelopeCipher } from './envelope-cipher';
export { deriveTenantKey, TENANT_KEY_BYTES, TENANT_KEY_PURPOSES } from './tenant-key-derivation';
export type { TenantKeyPurpose, TenantKeyResult } from './tenant-key-derivation';
export type { DecryptResult, DecryptFailureReason, ReencryptResult } from './envelope-cipher';
export { keyIdOf } from './envelope-format';
export { encodeEncryptionContext } from './encryption-context';
export type { EncryptionContext } from './encryption-context';
export {
  EncryptedColumnRegistry,
  encryptionContextFor,
  isSafeSqlIdentifier,
} from './encrypted-column-registry';
export type { EncryptedColumn, RegisterColumnResult } from './encrypted-column-registry';
