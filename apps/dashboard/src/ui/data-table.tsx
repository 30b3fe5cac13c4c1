'use client';

import { useId, type ReactNode } from 'react';
import styles from './table.module.css';
import { TableHead } from './table-head';
import { useTableRows, type TableSort } from './use-table-rows';

// A table for one page of a cursor-paginated list: the API pages (Pager, server-side), this component sorts
// and filters the rows of the page in the browser. Rows arrive already rendered on the server (cells are
// React nodes, which may hold client components such as a confirm dialog), with plain values to sort and
// search by, so no data formatting runs twice. Headers are buttons with aria-sort; the filter's result count
// is a polite live region.

export interface TableColumn {
  readonly id: string;
  readonly label: string;
  readonly sortable?: boolean;
  readonly numeric?: boolean;
  /** Keep the header for screen readers only (an actions column). */
  readonly hideLabel?: boolean;
}

export type SortValue = string | number | null;

export interface TableRow {
  readonly id: string;
  readonly cells: readonly ReactNode[];
  /** One value per column (null for unsortable columns). */
  readonly sort: readonly SortValue[];
  /** The text the filter matches against. */
  readonly search: string;
}

export function DataTable({
  caption,
  columns,
  rows,
  filterLabel = 'Filter this page',
  initialSort,
  footer,
  filterable = true,
}: {
  caption: string;
  columns: readonly TableColumn[];
  rows: readonly TableRow[];
  filterLabel?: string;
  initialSort?: TableSort;
  footer?: ReactNode;
  /** Off for short lists (a few recent events), where a filter box is only noise. */
  filterable?: boolean;
}) {
  const { query, setQuery, sort, toggleSort, visible } = useTableRows(columns, rows, initialSort);
  const filterId = useId();
  const captionId = useId();

  return (
    <div className={styles.wrapper}>
      {filterable ? (
        <div className={styles.toolbar}>
          <div className={styles.filter}>
            <label htmlFor={filterId}>{filterLabel}</label>
            <input
              id={filterId}
              type="search"
              value={query}
              onChange={(event) => setQuery(event.target.value)}
              autoComplete="off"
            />
          </div>
          <p className={styles.count} role="status" aria-live="polite">
            {query.trim() === ''
              ? `${rows.length} ${rows.length === 1 ? 'row' : 'rows'} on this page`
              : `${visible.length} of ${rows.length} rows on this page match`}
          </p>
        </div>
      ) : null}
      <div className={styles.scroll} role="region" aria-labelledby={captionId} tabIndex={0}>
        {/* Explicit roles: on small screens the rows display as cards, which would drop the implicit ones. */}
        <table className={`${styles.table} ${styles.stackable}`} role="table" aria-labelledby={captionId}>
          <caption id={captionId}>{caption}</caption>
          <TableHead columns={columns} sort={sort} onSort={toggleSort} />
          <tbody role="rowgroup">
            {visible.length === 0 ? (
              <tr role="row">
                <td role="cell" colSpan={columns.length} className={styles.noMatch}>
                  No rows on this page match “{query.trim()}”. Clear the filter, or try the next page.
                </td>
              </tr>
            ) : (
              visible.map((row) => (
                <tr key={row.id} role="row">
                  {row.cells.map((cell, index) => (
                    <td
                      key={columns[index]?.id ?? index}
                      role="cell"
                      data-label={columns[index]?.hideLabel ? '' : (columns[index]?.label ?? '')}
                      className={columns[index]?.numeric ? styles.numeric : undefined}
                    >
                      {cell}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {footer}
    </div>
  );
}
