import { EnvelopeCipher, encryptionContextFor } from '@gatehouse/crypto';
import { ENCRYPTED_COLUMNS } from '@gatehouse/db';

/** The encrypted columns of this module, as registered for key rotation (one list, so both sides agree). */
function registered(table: string, column: string) {
  const entry = ENCRYPTED_COLUMNS.find((c) => c.table === table && c.column === column);
  if (entry === undefined) throw new Error(`${table}.${column} is not registered for key rotation`);
  return entry;
}

const COLUMNS = {
  accessToken: registered('oauth_credentials', 'access_token_ct'),
  refreshToken: registered('oauth_credentials', 'refresh_token_ct'),
  clientSecret: registered('oauth_clients', 'client_secret_ct'),
} as const;

export type OAuthSecretColumn = keyof typeof COLUMNS;

type Row = { readonly id: string; readonly tenantId: string };

/**
 * Seals upstream OAuth secrets (access and refresh tokens, client secrets). The AAD binds each ciphertext to its
 * table, column, row id and tenant: a token copied into another row, column or tenant does not open. A failed
 * open answers undefined (the caller treats the credential as needing sign-in), never the error.
 */
export class OAuthCipher {
  constructor(private readonly cipher: EnvelopeCipher) {}

  seal(column: OAuthSecretColumn, row: Row, secret: string): Uint8Array<ArrayBuffer> {
    const sealed = this.cipher.encrypt(secret, encryptionContextFor(COLUMNS[column], ctx(row)));
    const out = new Uint8Array(sealed.byteLength);
    out.set(sealed);
    return out;
  }

  open(column: OAuthSecretColumn, row: Row, ciphertext: Uint8Array): string | undefined {
    const opened = this.cipher.decrypt(ciphertext, encryptionContextFor(COLUMNS[column], ctx(row)));
    return opened.ok ? Buffer.from(opened.plaintext).toString('utf8') : undefined;
  }
}

function ctx(row: Row) {
  return { rowId: row.id, tenantId: row.tenantId };
}
