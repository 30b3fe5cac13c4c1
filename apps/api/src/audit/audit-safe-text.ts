import { createHash } from 'node:crypto';
import { TOKEN_SECRET_PATTERN } from '@gatehouse/commands';

/** The longest tenant-written text an audit event shows as it is. */
export const MAX_SHOWN_AUDIT_TEXT = 200;

/**
 * Text a tenant wrote (a changed projection path, which holds tool names; a source origin; a repository identity),
 * as an audit event may hold it: itself when short and plain, else `sha256:<first 16 hex>` of it. The audit guard
 * refuses token-shaped, oversized or NUL-holding text by throwing, which rolls back the whole mutation: a value
 * the tenant chose must never be able to do that. Equal texts give equal markers, so events still correlate.
 * Hashed as UTF-16 code units, so two texts that differ only in lone surrogates still differ.
 */
export function auditSafeText(text: string): string {
  const plain =
    text.length <= MAX_SHOWN_AUDIT_TEXT && !text.includes('\u0000') && !TOKEN_SECRET_PATTERN.test(text);
  if (plain) return text;
  return `sha256:${createHash('sha256').update(text, 'utf16le').digest('hex').slice(0, 16)}`;
}

/** {@link auditSafeText} over every string member of flat audit data; other members are kept as they are. */
export function auditSafeFields<T extends string | number | boolean | null>(
  data: Readonly<Record<string, T>>,
): Record<string, T | string> {
  const out: Record<string, T | string> = {};
  for (const [key, value] of Object.entries(data))
    out[key] = typeof value === 'string' ? auditSafeText(value) : value;
  return out;
}
