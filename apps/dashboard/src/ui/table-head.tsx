'use client';

import type { TableColumn } from './data-table';
import styles from './table.module.css';
import type { TableSort } from './use-table-rows';

// The header row of a DataTable: a sort button with aria-sort for each sortable column.
export function TableHead({
  columns,
  sort,
  onSort,
}: {
  columns: readonly TableColumn[];
  sort: TableSort | undefined;
  onSort: (column: string) => void;
}) {
  return (
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
                <button type="button" className={styles.sortButton} onClick={() => onSort(column.id)}>
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
  );
}
