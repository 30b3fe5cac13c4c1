import type { FingerprintKey } from '@gatehouse/definitions';
import type { DefinitionCipher } from '../effective-view/definition-cipher';

/** What definitionSnapshotOf opens with: the cipher itself, or this cache in front of it. */
export type DefinitionOpener = Pick<DefinitionCipher, 'openDocument' | 'openValue' | 'fingerprintKeyFor'>;

type Row = { readonly id: string; readonly tenantId: string };

/** Documents remembered at most (a document is bounded in size by the decoder; entries are a few kB each). */
const MAX_DOCUMENTS = 256;

/**
 * Lease issuance opens every definition document of the view on every lease (decision 0122: about a seventh of a
 * lease's API CPU under the bench), and they seldom change. This remembers the plaintext of a document by exactly
 * what decrypting it depends on: its row (id and tenant, the AAD) and its ciphertext bytes, under the one key ring
 * of this process. A changed or re-keyed document is another ciphertext, so it is opened afresh; a document that
 * does not open is never remembered (it reads as unreadable each time, as from the cipher). Variable values,
 * the secrets, are not cached: they are opened from the cipher on every lease, as before.
 */
export class OpenedDocumentsCache implements DefinitionOpener {
  readonly #opened = new Map<string, string>();

  constructor(
    private readonly cipher: DefinitionOpener,
    private readonly maxDocuments = MAX_DOCUMENTS,
  ) {}

  openDocument(row: Row, ciphertext: Uint8Array): string | undefined {
    const key = `${row.tenantId}\u0000${row.id}\u0000${Buffer.from(ciphertext.buffer, ciphertext.byteOffset, ciphertext.byteLength).toString('base64')}`;
    const remembered = this.#opened.get(key);
    if (remembered !== undefined) {
      // Least recently used goes first: a hit moves to the end of the map's order.
      this.#opened.delete(key);
      this.#opened.set(key, remembered);
      return remembered;
    }
    const text = this.cipher.openDocument(row, ciphertext);
    if (text === undefined) return undefined;
    this.#opened.set(key, text);
    if (this.#opened.size > this.maxDocuments) {
      const oldest = this.#opened.keys().next();
      if (oldest.done !== true) this.#opened.delete(oldest.value);
    }
    return text;
  }

  openValue(row: Row, ciphertext: Uint8Array): string | undefined {
    return this.cipher.openValue(row, ciphertext);
  }

  fingerprintKeyFor(tenantId: string): FingerprintKey {
    return this.cipher.fingerprintKeyFor(tenantId);
  }
}
