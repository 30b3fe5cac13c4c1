import { randomBytes } from 'node:crypto';
import type { Logger } from '@gatehouse/platform';
import type { ApiConfig } from '../config/api.config';
import { encryptionContextFor, EnvelopeCipher, KeyRing } from '@gatehouse/crypto';
import { ENCRYPTED_COLUMNS } from '@gatehouse/db';
import type { FingerprintKey } from '@gatehouse/definitions';

/** The encrypted columns of this module, as registered for key rotation (one list, so both sides agree). */
function registered(table: string, column: string) {
  const entry = ENCRYPTED_COLUMNS.find((c) => c.table === table && c.column === column);
  if (entry === undefined) throw new Error(`${table}.${column} is not registered for key rotation`);
  return entry;
}

const DOCUMENT_COLUMN = registered('definition_sources', 'document_ct');
const VERSION_COLUMN = registered('definition_source_versions', 'document_ct');
const VALUE_COLUMN = registered('definition_variables', 'value_ct');

type Row = { readonly id: string; readonly tenantId: string };

/**
 * Seals definition documents and variable values. The AAD binds each ciphertext to its table, column, row id and
 * tenant, so a ciphertext copied to another row or tenant does not open. A failed open is reported as such
 * (the source reads as unreadable), never thrown to a client.
 */
export class DefinitionCipher {
  constructor(private readonly cipher: EnvelopeCipher | undefined) {}

  sealDocument(row: Row, text: string): Uint8Array<ArrayBuffer> {
    return copy(this.#cipher().encrypt(text, encryptionContextFor(DOCUMENT_COLUMN, ctx(row))));
  }

  openDocument(row: Row, ciphertext: Uint8Array): string | undefined {
    const opened = this.#cipher().decrypt(ciphertext, encryptionContextFor(DOCUMENT_COLUMN, ctx(row)));
    return opened.ok ? Buffer.from(opened.plaintext).toString('utf8') : undefined;
  }

  /** A stored version of a source's document, bound to its own version row (not the source's). */
  sealVersionDocument(row: Row, text: string): Uint8Array<ArrayBuffer> {
    return copy(this.#cipher().encrypt(text, encryptionContextFor(VERSION_COLUMN, ctx(row))));
  }

  openVersionDocument(row: Row, ciphertext: Uint8Array): string | undefined {
    const opened = this.#cipher().decrypt(ciphertext, encryptionContextFor(VERSION_COLUMN, ctx(row)));
    return opened.ok ? Buffer.from(opened.plaintext).toString('utf8') : undefined;
  }

  sealValue(row: Row, value: string): Uint8Array<ArrayBuffer> {
    return copy(this.#cipher().encrypt(value, encryptionContextFor(VALUE_COLUMN, ctx(row))));
  }

  openValue(row: Row, ciphertext: Uint8Array): string | undefined {
    const opened = this.#cipher().decrypt(ciphertext, encryptionContextFor(VALUE_COLUMN, ctx(row)));
    return opened.ok ? Buffer.from(opened.plaintext).toString('utf8') : undefined;
  }

  /**
   * The tenant's definition-fingerprint key: HKDF from the operator's active key-encryption key, bound to the
   * tenant id (libs/crypto deriveTenantKey), named by that key's id. Derived once per tenant and process.
   */
  fingerprintKeyFor(tenantId: string): FingerprintKey {
    const cached = this.#fingerprintKeys.get(tenantId);
    if (cached !== undefined) return cached;
    const derived = this.#cipher().deriveTenantKey('definition-fingerprint', tenantId);
    // The active key is in the ring by construction (KeyRing.parse checks it): a miss is a bug.
    if (!derived.ok) throw new Error('definitions: the active key cannot derive a fingerprint key');
    const key: FingerprintKey = Object.freeze({ id: derived.keyId, bytes: derived.key });
    this.#fingerprintKeys.set(tenantId, key);
    return key;
  }

  readonly #fingerprintKeys = new Map<string, FingerprintKey>();

  #cipher(): EnvelopeCipher {
    // Only reachable when a host built the handlers without a key ring (a wiring bug, never a client's fault).
    if (this.cipher === undefined) throw new Error('definitions: no key ring configured');
    return this.cipher;
  }
}

function ctx(row: Row) {
  return { rowId: row.id, tenantId: row.tenantId };
}

function copy(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(bytes.byteLength);
  out.set(bytes);
  return out;
}

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
