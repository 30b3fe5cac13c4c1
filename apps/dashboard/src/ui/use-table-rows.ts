'use client';

import { useMemo, useState } from 'react';
import type { SortValue, TableColumn, TableRow } from './data-table';

export type SortDirection = 'ascending' | 'descending';

export interface TableSort {
  readonly column: string;
  readonly direction: SortDirection;
}

function compare(a: SortValue, b: SortValue): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: 'base' });
}

/** The rows of one page as the reader filtered and sorted them, in the browser. */
export function useTableRows(
  columns: readonly TableColumn[],
  rows: readonly TableRow[],
  initialSort: TableSort | undefined,
) {
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<TableSort | undefined>(initialSort);

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

  return { query, setQuery, sort, toggleSort, visible };
}
