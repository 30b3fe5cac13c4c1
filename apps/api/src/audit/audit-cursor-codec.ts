/**
 * The audit list is keyset-paginated over seq (newest first): the cursor is the last seq of the previous page,
 * base64url-wrapped so clients treat it as opaque. Decoding is strict (canonical form only), so any edited or
 * foreign cursor is a `bad_cursor` 400, never a 500 or a silently different page.
 */
const PREFIX = 'a1.';
const MAX_SEQ = 9_223_372_036_854_775_807n;
const DECIMAL = /^(0|[1-9][0-9]{0,18})$/;

export function encodeAuditCursor(seq: bigint): string {
  return Buffer.from(`${PREFIX}${seq.toString(10)}`, 'utf8').toString('base64url');
}

export type DecodedAuditCursor = { ok: true; beforeSeq: bigint } | { ok: false; reason: 'bad_cursor' };

export function decodeAuditCursor(cursor: string): DecodedAuditCursor {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(cursor)) return { ok: false, reason: 'bad_cursor' };
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!text.startsWith(PREFIX)) return { ok: false, reason: 'bad_cursor' };
  const digits = text.slice(PREFIX.length);
  if (!DECIMAL.test(digits)) return { ok: false, reason: 'bad_cursor' };
  const seq = BigInt(digits);
  if (seq > MAX_SEQ) return { ok: false, reason: 'bad_cursor' };
  // Only the canonical spelling is accepted (base64url has several encodings of trailing bits).
  if (encodeAuditCursor(seq) !== cursor) return { ok: false, reason: 'bad_cursor' };
  return { ok: true, beforeSeq: seq };
}
