import Link from 'next/link';
import { buttonClassName } from './button';
import { nextPage, pageHref, previousPage, type PageCursor } from './paging';
import styles from './table.module.css';

/** First / Previous / Next links for a cursor-paginated list (links, so paging works without JavaScript). */
export function Pager({
  path,
  keep = {},
  current,
  nextCursor,
  label,
}: {
  path: string;
  keep?: Readonly<Record<string, string | undefined>>;
  current: PageCursor;
  nextCursor: string | null;
  label: string;
}) {
  const previous = previousPage(current);
  if (previous === undefined && nextCursor === null) return null;
  const pageNumber = current.cursor === undefined ? 1 : current.trail.length + 2;
  const link = buttonClassName('secondary', 'small');
  return (
    <nav className={styles.pager} aria-label={label}>
      <span className="muted">Page {pageNumber}</span>
      <span className={styles.pagerLinks}>
        {previous !== undefined ? (
          <>
            <Link className={link} href={pageHref(path, keep, { cursor: undefined, trail: [] })}>
              First page
            </Link>
            <Link className={link} href={pageHref(path, keep, previous)} rel="prev">
              Previous
            </Link>
          </>
        ) : null}
        {nextCursor !== null ? (
          <Link className={link} href={pageHref(path, keep, nextPage(current, nextCursor))} rel="next">
            Next page
          </Link>
        ) : null}
      </span>
    </nav>
  );
}
