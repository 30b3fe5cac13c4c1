import type { KeysetPosition } from './keyset-cursor';

// Keyset pagination NEWEST first over (a timestamp column, id), for the approval queue and history and the lease
// holders of servers.status: the descending twin of keyset-page.ts's afterPosition/keysetOrder. The cursor is the
// same opaque one (`positionAfter` refuses a bad one with 400, `toPage` hands out the next); only the direction
// differs.

/** The Prisma `where` fragment for "strictly older than this position" in (at desc, id desc) order. */
export function olderThan<F extends 'openedAt' | 'decidedAt' | 'issuedAt'>(
  position: KeysetPosition | null,
  field: F,
): { OR: (Record<F, { lt: Date }> | (Record<F, Date> & { id: { lt: string } }))[] } | object {
  if (position === null) return {};
  const before = { [field]: { lt: position.at } } as Record<F, { lt: Date }>;
  const tie = { [field]: position.at, id: { lt: position.id } } as Record<F, Date> & { id: { lt: string } };
  return { OR: [before, tie] };
}

/** Descending order by (field, id), matching olderThan. */
export function newestFirst<F extends 'openedAt' | 'decidedAt' | 'issuedAt'>(
  field: F,
): [Record<F, 'desc'>, { id: 'desc' }] {
  return [{ [field]: 'desc' } as Record<F, 'desc'>, { id: 'desc' }];
}
