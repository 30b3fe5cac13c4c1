import { z } from 'zod';
import { GATEHOUSE_TOKEN_PATTERN } from '@gatehouse/definitions';

export const uuid = z.uuid();
export const isoDateTime = z.iso.datetime({ offset: true });

/** Opaque cursor: validated for shape here, decoded by the repository (a bad cursor is a 400, never a 500). */
export const cursor = z.string().min(1).max(512).regex(/^[A-Za-z0-9_-]+$/, 'cursor must be an opaque token');
export const limit = z.coerce.number().int().min(1).max(200).default(50);

export const pageInput = { cursor: cursor.optional(), limit };

export function page<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable() });
}

/**
 * A Gatehouse secret (an API token `ghu_...`, an invitation `ghi_...`) anywhere in a string; a listed prefix is
 * only 10 characters. Names are refused with it at the edge, and the audit guard refuses it in every event. It is
 * the pattern the definitions decoder refuses server names with, so the two can never disagree.
 */
export const TOKEN_SECRET_PATTERN = GATEHOUSE_TOKEN_PATTERN;

export const notTokenShaped = (value: string): boolean => !TOKEN_SECRET_PATTERN.test(value);
export const TOKEN_SHAPED_MESSAGE = 'must not look like an API token';

// Names end up in audit events, which refuse token-shaped text: refusing it here makes that a 400, not a 500.
export const displayName = z.string().trim().min(1).max(120).refine(notTokenShaped, TOKEN_SHAPED_MESSAGE);
export const resourceName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]*$/, 'letters, digits, space, dot, underscore and dash; starts with a letter or digit')
  .refine(notTokenShaped, TOKEN_SHAPED_MESSAGE);
