// Cursor paging in the URL. The API hands out opaque `nextCursor`s only forward; to offer "Previous" the URL
// also carries the trail of cursors that led here (`trail`, dot-separated: cursors are base64url). Pure.

export type SearchParams = Readonly<Record<string, string | string[] | undefined>>;

export interface PageCursor {
  /** Cursor of the current page; undefined on the first page. */
  readonly cursor: string | undefined;
  /** Cursors of the pages before this one, oldest first, excluding the first page. */
  readonly trail: readonly string[];
}

const CURSOR_SHAPE = /^[A-Za-z0-9_-]{1,512}$/;
const MAX_TRAIL = 30;

export function firstParam(params: SearchParams, name: string): string | undefined {
  const value = params[name];
  return Array.isArray(value) ? value[0] : value;
}

export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 50;

/** Rows per page from `?limit=`, one of PAGE_SIZES (anything else: the default). */
export function readPageSize(params: SearchParams): number {
  const value = Number(firstParam(params, 'limit'));
  return (PAGE_SIZES as readonly number[]).includes(value) ? value : DEFAULT_PAGE_SIZE;
}

export function readPageCursor(params: SearchParams): PageCursor {
  const cursor = firstParam(params, 'cursor');
  if (cursor === undefined || !CURSOR_SHAPE.test(cursor)) return { cursor: undefined, trail: [] };
  const trail = (firstParam(params, 'trail') ?? '')
    .split('.')
    .filter((entry) => CURSOR_SHAPE.test(entry))
    .slice(-MAX_TRAIL);
  return { cursor, trail };
}

export function nextPage(current: PageCursor, nextCursor: string): PageCursor {
  const trail = current.cursor === undefined ? [] : [...current.trail, current.cursor].slice(-MAX_TRAIL);
  return { cursor: nextCursor, trail };
}

export function previousPage(current: PageCursor): PageCursor | undefined {
  if (current.cursor === undefined) return undefined;
  const last = current.trail[current.trail.length - 1];
  return last === undefined
    ? { cursor: undefined, trail: [] }
    : { cursor: last, trail: current.trail.slice(0, -1) };
}

/** The URL of a page of `path`, keeping the list's other parameters (filters). */
export function pageHref(
  path: string,
  keep: Readonly<Record<string, string | undefined>>,
  page: PageCursor,
): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(keep))
    if (value !== undefined && value !== '') query.set(name, value);
  if (page.cursor !== undefined) query.set('cursor', page.cursor);
  if (page.trail.length > 0) query.set('trail', page.trail.join('.'));
  const text = query.toString();
  return text === '' ? path : `${path}?${text}`;
}
