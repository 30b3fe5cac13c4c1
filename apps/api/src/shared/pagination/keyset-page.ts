import { badCursor } from '../command-problems';
import { decodeCursor, encodeCursor, type KeysetPosition } from './keyset-cursor';

export interface Page<T> {
  readonly items: T[];
  readonly nextCursor: string | null;
}

/** The position a cursor points after, or null for the first page; a bad cursor is a 400 `bad_cursor`. */
export function positionAfter(list: string, cursor: string | undefined): KeysetPosition | null {
  if (cursor === undefined) return null;
  const decoded = decodeCursor(list, cursor);
  if (!decoded.ok) throw badCursor();
  return decoded.position;
}

/**
 * The Prisma `where` fragment for "strictly after this position" in ascending (createdAt, id) order. `idField`
 * names the tie-breaker column (`id`, or `userId` where the row has a composite key).
 */
export function afterPosition<K extends string>(
  position: KeysetPosition | null,
  idField: K,
): { OR: ({ createdAt: { gt: Date } } | ({ createdAt: Date } & Record<K, { gt: string }>))[] } | object {
  if (position === null) return {};
  const tie = { createdAt: position.at, [idField]: { gt: position.id } } as { createdAt: Date } & Record<
    K,
    { gt: string }
  >;
  return { OR: [{ createdAt: { gt: position.at } }, tie] };
}

/** Ascending order by (createdAt, idField), matching afterPosition. */
export function keysetOrder<K extends string>(idField: K): [{ createdAt: 'asc' }, Record<K, 'asc'>] {
  return [{ createdAt: 'asc' }, { [idField]: 'asc' } as Record<K, 'asc'>];
}

/**
 * Rows were fetched with `take: limit + 1`: the extra row only says there is a next page. The cursor points at
 * the last row returned.
 */
export function toPage<R, T>(
  list: string,
  rows: readonly R[],
  limit: number,
  positionOf: (row: R) => KeysetPosition,
  view: (row: R) => T,
): Page<T> {
  const visible = rows.slice(0, limit);
  const last = visible[visible.length - 1];
  const nextCursor = rows.length > limit && last !== undefined ? encodeCursor(list, positionOf(last)) : null;
  return { items: visible.map(view), nextCursor };
}
