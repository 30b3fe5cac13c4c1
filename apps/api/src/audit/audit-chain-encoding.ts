import { createHash } from 'node:crypto';

/** The `prevHash` of a tenant's first event: 32 zero bytes. */
export const GENESIS_HASH: Uint8Array = new Uint8Array(32);

/** Bumped if the encoding ever changes; it is the first field hashed, so v1 and v2 digests can never collide. */
const DOMAIN = 'gatehouse/audit-event/v1';

/** The hashed content of one audit row, exactly as stored (and as read back by verification). */
export interface AuditHashFields {
  readonly tenantId: string;
  readonly seq: bigint;
  readonly occurredAt: Date;
  readonly actorType: string;
  readonly actorId: string | null;
  readonly tokenKind: string | null;
  readonly action: string;
  readonly targetType: string;
  readonly targetId: string | null;
  readonly outcome: string;
  /** The `data` column as a JSON value (hashed in canonical form, so JSONB's key reordering is harmless). */
  readonly data: unknown;
}

/**
 * hash = sha256(prevHash || encode(fields)), where encode is a fixed sequence of fields, each written as a
 * presence byte (0x00 null, 0x01 present) followed, when present, by a 4-byte big-endian byte length and the
 * UTF-8 bytes. Fixed order and count plus length prefixes make the encoding injective: no two different rows
 * share a byte string, whatever their text contains. Field order (docs/decisions/0010-audit-hash-chain.md):
 * domain, tenantId (lower-case uuid), seq (decimal), occurredAt (ISO 8601 UTC, milliseconds), actorType,
 * actorId, tokenKind, action, targetType, targetId, outcome, data (canonical JSON).
 */
export function computeAuditHash(prevHash: Uint8Array, fields: AuditHashFields): Uint8Array {
  const hash = createHash('sha256');
  hash.update(prevHash);
  hash.update(encodeAuditFields(fields));
  return new Uint8Array(hash.digest());
}

export function encodeAuditFields(fields: AuditHashFields): Buffer {
  const parts: (string | null)[] = [
    DOMAIN,
    fields.tenantId.toLowerCase(),
    fields.seq.toString(10),
    fields.occurredAt.toISOString(),
    fields.actorType,
    fields.actorId,
    fields.tokenKind,
    fields.action,
    fields.targetType,
    fields.targetId,
    fields.outcome,
    canonicalJson(fields.data),
  ];
  return Buffer.concat(parts.map(encodeField));
}

function encodeField(value: string | null): Buffer {
  if (value === null) return Buffer.from([0]);
  const bytes = Buffer.from(value, 'utf8');
  const header = Buffer.alloc(5);
  header.writeUInt8(1, 0);
  header.writeUInt32BE(bytes.length, 1);
  return Buffer.concat([header, bytes]);
}

/**
 * JSON with object keys sorted (by UTF-16 code units) at every depth, no whitespace. Appended data is flat, but
 * verification canonicalizes whatever it reads back, so a tampered nested value still hashes (and mismatches)
 * instead of throwing.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value);
    // undefined, functions and symbols have no JSON form; treat them as null like JSON.stringify does in arrays.
    return text === undefined ? 'null' : text;
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

export function fromHex(hex: string): Uint8Array {
  return new Uint8Array(Buffer.from(hex, 'hex'));
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.from(a).equals(Buffer.from(b));
}
