// One page of a served list (tools, prompts, resources, templates: the same rule for all four). The cursor is
// opaque to clients and means "from this position in the caller's current list"; it carries no name, no server
// and nothing a caller could use to reach what the list does not hold. A list that changes between pages (its
// list_changed is sent) may shift an entry by a page, as any offset cursor may; a client re-lists after
// list_changed. A cursor that is not one of ours is refused (the caller's bad input).

export const LIST_PAGE_SIZE = 200;

const CURSOR = /^p1\.(\d{1,9})$/;

export type ListPage<T> =
  | { readonly ok: true; readonly items: readonly T[]; readonly nextCursor?: string }
  | { readonly ok: false; readonly reason: 'invalid_cursor' };

export function pageOf<T>(
  items: readonly T[],
  cursor: string | undefined,
  size: number = LIST_PAGE_SIZE,
): ListPage<T> {
  let start = 0;
  if (cursor !== undefined) {
    const offset = CURSOR.exec(cursor)?.[1];
    if (offset === undefined) return { ok: false, reason: 'invalid_cursor' };
    start = Number(offset);
    // Ours never names position 0; past the end (the list shrank since): an empty last page.
    if (start === 0) return { ok: false, reason: 'invalid_cursor' };
  }
  const end = start + size;
  const page = start === 0 && end >= items.length ? items : items.slice(start, end);
  return end < items.length ? { ok: true, items: page, nextCursor: `p1.${end}` } : { ok: true, items: page };
}
