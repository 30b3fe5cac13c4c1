import { z } from 'zod';

export const uuid = z.uuid();
export const isoDateTime = z.iso.datetime({ offset: true });

/** Opaque cursor: validated for shape here, decoded by the repository (a bad cursor is a 400, never a 500). */
export const cursor = z.string().min(1).max(512).regex(/^[A-Za-z0-9_-]+$/, 'cursor must be an opaque token');
export const limit = z.coerce.number().int().min(1).max(200).default(50);

export const pageInput = { cursor: cursor.optional(), limit };

export function page<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable() });
}

export const displayName = z.string().trim().min(1).max(120);
export const resourceName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]*$/, 'letters, digits, space, dot, underscore and dash; starts with a letter or digit');
