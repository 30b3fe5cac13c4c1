// Opaque cursors for keyset pagination over (createdAt, id). The client sees base64url; inside is
// `<list>.<createdAt ms>.<id>`. Decoding is strict and canonical: anything that does not re-encode to exactly
// the same string, names another list, or carries a malformed id is refused as `bad_cursor` (a 400), so an
// edited cursor can never reach the database as a half-parsed value.

export interface KeysetPosition {
  readonly at: Date;
  readonly id: string;
}

export type CursorDecoding =
  | { readonly ok: true; readonly position: KeysetPosition }
  | { readonly ok: false; readonly reason: 'bad_cursor' };

const LIST_NAME = /^[a-z][a-z-]{0,30}$/;
const PAYLOAD =
  /^([a-z][a-z-]{0,30})\.(\d{1,15})\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

function assertListName(list: string): void {
  if (!LIST_NAME.test(list)) throw new Error(`cursor list name must match ${LIST_NAME.source}`);
}

export function encodeCursor(list: string, position: KeysetPosition): string {
  assertListName(list);
  const ms = position.at.getTime();
  if (!Number.isSafeInteger(ms) || ms < 0) throw new Error('cursor position must be a valid date');
  return Buffer.from(`${list}.${ms}.${position.id.toLowerCase()}`, 'utf8').toString('base64url');
}

export function decodeCursor(list: string, cursor: string): CursorDecoding {
  assertListName(list);
  const refused = { ok: false, reason: 'bad_cursor' } as const;
  if (!BASE64URL.test(cursor) || cursor.length > 256) return refused;
  const payload = Buffer.from(cursor, 'base64url').toString('utf8');
  // Buffer's decoder skips what it cannot read; the canonical re-encoding catches every such edit.
  if (Buffer.from(payload, 'utf8').toString('base64url') !== cursor) return refused;
  const match = PAYLOAD.exec(payload);
  if (!match || match[1] !== list) return refused;
  const ms = Number(match[2]);
  const at = new Date(ms);
  if (!Number.isSafeInteger(ms) || Number.isNaN(at.getTime())) return refused;
  return { ok: true, position: { at, id: match[3] as string } };
}
