import { z } from 'zod';

// Building blocks of the API's request and response schemas (decision 0063): the command
// declarations in libs/commands and the dashboard read the same ones.

export const uuid = z.uuid();
export const isoDateTime = z.iso.datetime({ offset: true });

/** Opaque cursor: validated for shape here, decoded by the repository (a bad cursor is a 400, never a 500). */
export const cursor = z
  .string()
  .min(1)
  .max(512)
  .regex(/^[A-Za-z0-9_-]+$/, 'cursor must be an opaque token');
export const limit = z.coerce.number().int().min(1).max(200).default(50);

export const pageInput = { cursor: cursor.optional(), limit };

export function page<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable() });
}

/**
 * A Gatehouse secret anywhere in a text: an API token (`ghu_`, `gha_`, `ghw_`, `ghg_`) or an invitation
 * (`ghi_`), then 16 or more letters or digits. The one pattern: libs/definitions refuses server names with it,
 * libs/commands re-exports it as `TOKEN_SECRET_PATTERN` (the audit guard and the edge refuse it in names). Linear:
 * the only repetition is a greedy run of one character class at the end of the pattern.
 */
export const GATEHOUSE_TOKEN_PATTERN = /gh[uawgi]_[A-Za-z0-9]{16,}/;

export const notTokenShaped = (value: string): boolean => !GATEHOUSE_TOKEN_PATTERN.test(value);
export const TOKEN_SHAPED_MESSAGE = 'must not look like an API token';

// Names end up in audit events, which refuse token-shaped text: refusing it here makes that a 400, not a 500.
export const displayName = z.string().trim().min(1).max(120).refine(notTokenShaped, TOKEN_SHAPED_MESSAGE);
export const resourceName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9 ._-]*$/,
    'letters, digits, space, dot, underscore and dash; starts with a letter or digit',
  )
  .refine(notTokenShaped, TOKEN_SHAPED_MESSAGE);
