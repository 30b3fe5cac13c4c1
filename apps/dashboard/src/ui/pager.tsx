import Link from 'next/link';
import { buttonClassName } from './button';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES, nextPage, pageHref, previousPage, type PageCursor } from './paging';
import styles from './table.module.css';

/**
 * First / Previous / Next links for a cursor-paginated list, and the page size (links, so paging works
 * without JavaScript). Changing the size starts again from the first page: cursors are positions, not pages.
 */
export function Pager({
  path,
  keep = {},
  current,
  nextCursor,
  pageSize,
  label,
}: {
  path: string;
  keep?: Readonly<Record<string, string | undefined>>;
  current: PageCursor;
  nextCursor: string | null;
  pageSize: number;
  label: string;
}) {
  const previous = previousPage(current);
  const pageNumber = current.cursor === undefined ? 1 : current.trail.length + 2;
  const withSize = { ...keep, limit: pageSize === DEFAULT_PAGE_SIZE ? undefined : String(pageSize) };
  const link = buttonClassName('secondary', 'small');
  return (
    <nav className={styles.pager} aria-label={label}>
      <span className={styles.pagerLinks}>
        <span className="muted">Page {pageNumber}</span>
        <span className="muted" aria-hidden="true">
          ·
        </span>
        <span className="muted">Rows per page</span>
        {PAGE_SIZES.map((size) => (
          <Link
            key={size}
            href={pageHref(
              path,
              { ...keep, limit: size === DEFAULT_PAGE_SIZE ? undefined : String(size) },
              { cursor: undefined, trail: [] },
            )}
            aria-current={size === pageSize ? 'true' : undefined}
            aria-label={`${size} rows per page`}
            className={styles.sizeLink}
          >
            {size}
          </Link>
        ))}
      </span>
      <span className={styles.pagerLinks}>
        {previous !== undefined ? (
          <>
            <Link className={link} href={pageHref(path, withSize, { cursor: undefined, trail: [] })}>
              First page
            </Link>
            <Link className={link} href={pageHref(path, withSize, previous)} rel="prev">
              Previous
            </Link>
          </>
        ) : null}
        {nextCursor !== null ? (
          <Link className={link} href={pageHref(path, withSize, nextPage(current, nextCursor))} rel="next">
            Next page
          </Link>
        ) : null}
      </span>
    </nav>
  );
}
