'use client';

import { useId, useMemo, useState, type ReactNode } from 'react';
import styles from './table.module.css';

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

type Direction = 'ascending' | 'descending';

function compare(a: SortValue, b: SortValue): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: 'base' });
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
  initialSort?: { column: string; direction: Direction };
  footer?: ReactNode;
  /** Off for short lists (a few recent events), where a filter box is only noise. */
  filterable?: boolean;
}) {
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<{ column: string; direction: Direction } | undefined>(initialSort);
  const filterId = useId();
  const captionId = useId();

  const visible = useMemo(() => {
    const needle = query.trim().toLowerCase();
    const matched =
      needle === '' ? [...rows] : rows.filter((row) => row.search.toLowerCase().includes(needle));
    const index = sort ? columns.findIndex((column) => column.id === sort.column) : -1;
    if (sort && index >= 0) {
      const sign = sort.direction === 'ascending' ? 1 : -1;
      // Nulls stay last in either direction.
      matched.sort((a, b) => {
        const left = a.sort[index] ?? null;
        const right = b.sort[index] ?? null;
        if (left === null || right === null) return compare(left, right);
        return sign * compare(left, right);
      });
    }
    return matched;
  }, [rows, query, sort, columns]);

  function toggleSort(column: string) {
    setSort((current) =>
      current?.column === column
        ? { column, direction: current.direction === 'ascending' ? 'descending' : 'ascending' }
        : { column, direction: 'ascending' },
    );
  }

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
          <thead role="rowgroup">
            <tr role="row">
              {columns.map((column) => {
                const sorted = sort?.column === column.id ? sort.direction : undefined;
                return (
                  <th
                    key={column.id}
                    role="columnheader"
                    scope="col"
                    aria-sort={column.sortable ? (sorted ?? 'none') : undefined}
                    className={column.numeric ? styles.numeric : undefined}
                  >
                    {column.sortable ? (
                      <button
                        type="button"
                        className={styles.sortButton}
                        onClick={() => toggleSort(column.id)}
                      >
                        {column.label}
                        <span className={styles.sortIcon} aria-hidden="true">
                          {sorted === 'ascending' ? '▲' : sorted === 'descending' ? '▼' : '↕'}
                        </span>
                      </button>
                    ) : column.hideLabel ? (
                      <span className="visually-hidden">{column.label}</span>
                    ) : (
                      column.label
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
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
