import { TOKEN_SECRET_PATTERN } from '@gatehouse/commands';
import type { AuditEventInput } from './audit-event';

/**
 * An audit event that must never be written: a secret-looking key, an oversized or nested value. Always a bug in
 * the calling use case (callers build events from ids and names), so it is thrown, and the mutation's
 * transaction rolls back with it.
 */
export class AuditEventRejectedError extends Error {
  constructor(reason: string) {
    super(`audit event rejected: ${reason}`);
    this.name = 'AuditEventRejectedError';
  }
}

const MAX_DATA_KEYS = 32;
const MAX_STRING = 512;
const MAX_ARRAY = 100;
const MAX_NAME = 100;
const KEY = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const NAME = /^[A-Za-z][A-Za-z0-9_.:-]*$/;

/**
 * Words that make a key look like it holds a secret. `token` only counts as the last word: `tokenId`,
 * `tokenKind` and `tokenPrefix` name a token, while `token` and `accessToken` would be one.
 */
const SECRET_WORDS = new Set([
  'secret',
  'secrets',
  'password',
  'passwd',
  'passphrase',
  'authorization',
  'cookie',
  'cookies',
  'csrf',
  'credential',
  'credentials',
  'apikey',
]);
const SECRET_LAST_WORDS = new Set(['token', 'tokens', 'key']);

/** A Gatehouse token secret (`ghu_...`) anywhere in a value: the same pattern the command schemas refuse. */
const TOKEN_SECRET = TOKEN_SECRET_PATTERN;

export function isSecretLookingKey(key: string): boolean {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_]+/)
    .filter((w) => w.length > 0);
  if (words.some((w) => SECRET_WORDS.has(w))) return true;
  if (words.join('') === 'apikey') return true;
  const last = words[words.length - 1];
  return last !== undefined && SECRET_LAST_WORDS.has(last);
}

/** Throws AuditEventRejectedError unless the event is small, flat and free of anything secret-looking. */
export function assertAuditEventSafe(event: AuditEventInput): void {
  checkName('action', event.action);
  checkName('target.type', event.target.type);
  checkText('target.id', event.target.id);
  checkText('actor.id', event.actor.id);
  checkText('actor.tokenKind', event.actor.tokenKind);
  const data = event.data ?? {};
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new AuditEventRejectedError('data must be an object');
  const keys = Object.keys(data);
  if (keys.length > MAX_DATA_KEYS)
    throw new AuditEventRejectedError(`data has more than ${MAX_DATA_KEYS} keys`);
  for (const key of keys) {
    if (!KEY.test(key))
      throw new AuditEventRejectedError(`data key "${key.slice(0, 64)}" is not a plain identifier`);
    if (isSecretLookingKey(key)) throw new AuditEventRejectedError(`data key "${key}" looks like a secret`);
    checkValue(key, (data as Record<string, unknown>)[key]);
  }
}

function checkValue(key: string, value: unknown): void {
  if (value === null || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new AuditEventRejectedError(`data.${key} is not a finite number`);
    return;
  }
  if (typeof value === 'string') return checkText(`data.${key}`, value);
  if (Array.isArray(value)) {
    if (value.length > MAX_ARRAY)
      throw new AuditEventRejectedError(`data.${key} has more than ${MAX_ARRAY} items`);
    for (const item of value) {
      if (typeof item !== 'string') throw new AuditEventRejectedError(`data.${key} may hold strings only`);
      checkText(`data.${key}[]`, item);
    }
    return;
  }
  throw new AuditEventRejectedError(
    `data.${key} must be a string, number, boolean, null or an array of strings`,
  );
}

function checkName(field: string, value: string): void {
  if (value.length === 0 || value.length > MAX_NAME || !NAME.test(value)) {
    throw new AuditEventRejectedError(`${field} must be a short dotted name (letters, digits, _ . : -)`);
  }
  if (TOKEN_SECRET.test(value)) throw new AuditEventRejectedError(`${field} looks like a token secret`);
}

function checkText(field: string, value: string | null): void {
  if (value === null) return;
  if (value.length > MAX_STRING)
    throw new AuditEventRejectedError(`${field} is longer than ${MAX_STRING} characters`);
  // Postgres text and JSONB cannot hold NUL; refusing it here keeps the hashed value equal to the stored one.
  if (value.includes('\u0000')) throw new AuditEventRejectedError(`${field} contains a NUL character`);
  if (TOKEN_SECRET.test(value)) throw new AuditEventRejectedError(`${field} looks like a token secret`);
}
