/**
 * The identity of the cell a ciphertext belongs to. It is bound into every ciphertext as AES-GCM additional
 * authenticated data, so a ciphertext copied to another row, column, table or tenant fails to decrypt.
 * Use the SQL names (`oauth_credentials`, `access_token_ct`) and the row id as text: key rotation rebuilds
 * the context from the encrypted-column registry, so both sides must agree.
 */
export type EncryptionContext = {
  readonly table: string;
  readonly column: string;
  readonly rowId: string;
  readonly tenantId?: string | undefined;
};

const encoder = new TextEncoder();
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Canonical, injective encoding of a context: each field in a fixed order as a 4-byte big-endian byte length
 * followed by its UTF-8 bytes; the tenant id is preceded by a presence byte so that "no tenant" and an empty
 * tenant id differ. Length prefixes make concatenation unambiguous (("ab","c") vs ("a","bc")).
 *
 * Strings that are not well-formed UTF-16 (lone surrogates) would be replaced by U+FFFD when encoded and so
 * collide with other strings; they are refused as a programming error.
 */
export function encodeEncryptionContext(context: EncryptionContext): Uint8Array {
  const parts: Uint8Array[] = [
    field('table', context.table),
    field('column', context.column),
    field('rowId', context.rowId),
  ];
  if (context.tenantId === undefined) {
    parts.push(Uint8Array.of(0));
  } else {
    parts.push(Uint8Array.of(1), field('tenantId', context.tenantId));
  }
  return concatBytes(parts);
}

function field(name: string, value: string): Uint8Array {
  if (typeof value !== 'string') throw new TypeError(`encryption context ${name} must be a string`);
  if (LONE_SURROGATE.test(value)) {
    throw new TypeError(`encryption context ${name} is not well-formed Unicode`);
  }
  const bytes = encoder.encode(value);
  const out = new Uint8Array(4 + bytes.length);
  new DataView(out.buffer).setUint32(0, bytes.length, false);
  out.set(bytes, 4);
  return out;
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
