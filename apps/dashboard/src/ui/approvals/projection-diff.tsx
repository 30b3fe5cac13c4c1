import type { ProjectionChangeView } from '@/views/approval-views';
import { Badge, type BadgeTone } from '../feedback';
import tableStyles from '../table.module.css';
import {
  CHANGE_KIND_LABELS,
  changePath,
  describeChange,
  formatDiffValue,
  valueChangeOf,
} from './approval-labels';
import styles from './approvals.module.css';

const KIND_TONES: Readonly<Record<ProjectionChangeView['kind'], BadgeTone>> = {
  added: 'positive',
  removed: 'negative',
  changed: 'caution',
};

const COLUMNS = ['Field', 'Change', 'Before', 'After'] as const;

/** One side of a row that names an env or header key: its value is never sent, so the cell says so. */
function HiddenValue({ present }: { present: boolean }) {
  return present ? (
    <span className="muted" data-diff-value="hidden">
      value not shown
    </span>
  ) : (
    <span className="muted">absent</span>
  );
}

/**
 * What changed since the last approved projection, field by field: the path, and the value before and after
 * (<del>/<ins>, so the roles are not carried by colour alone). Values are the API's redacted ones. An env or
 * header key whose value changed, was added or removed is a row of its own that names the key and never a value.
 */
export function ProjectionDiff({
  id,
  changes,
  firstReview,
  cause = null,
}: {
  /** Names the table (its caption) for assistive technology. */
  id: string;
  changes: readonly ProjectionChangeView[];
  /** No earlier approval to compare with. */
  firstReview: boolean;
  /** What opened the request, in words (causeLabel): named instead of "first review" where known. */
  cause?: string | null;
}) {
  if (changes.length === 0) {
    return (
      <p className="muted" data-diff="empty">
        {firstReview && cause !== null
          ? `${cause}. No earlier approval of this server to compare with: the whole definition is below.`
          : firstReview
            ? 'First review of this server: there is no earlier approval to compare with. The whole definition is below.'
            : 'No field of the definition differs from the last approval; its identity did (see above).'}
      </p>
    );
  }
  return (
    <div className={tableStyles.scroll} role="region" aria-labelledby={`${id}-caption`} tabIndex={0}>
      <table
        className={`${tableStyles.table} ${tableStyles.stackable} ${styles.diffTable}`}
        data-diff="changes"
        role="table"
        aria-labelledby={`${id}-caption`}
      >
        <caption id={`${id}-caption`}>What changed since the last approval</caption>
        <thead role="rowgroup">
          <tr role="row">
            {COLUMNS.map((column) => (
              <th key={column} scope="col" role="columnheader">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup">
          {changes.map((change) =>
            valueChangeOf(change) !== null ? (
              <tr
                key={`${change.kind}:${change.path.join('\u0000')}`}
                data-diff-row="value"
                title={describeChange(change)}
                role="row"
              >
                <td role="cell" data-label="Field">
                  <code>{changePath(change.path)}</code>
                </td>
                <td role="cell" data-label="Change">
                  <Badge tone={KIND_TONES[change.kind]}>{CHANGE_KIND_LABELS[change.kind]}</Badge>
                </td>
                <td role="cell" data-label="Before">
                  <HiddenValue present={change.kind !== 'added'} />
                </td>
                <td role="cell" data-label="After">
                  <HiddenValue present={change.kind !== 'removed'} />
                </td>
              </tr>
            ) : (
              <tr key={`${change.kind}:${changePath(change.path)}`} role="row">
                <td role="cell" data-label="Field">
                  <code>{changePath(change.path)}</code>
                </td>
                <td role="cell" data-label="Change">
                  <Badge tone={KIND_TONES[change.kind]}>{CHANGE_KIND_LABELS[change.kind]}</Badge>
                </td>
                <td role="cell" data-label="Before">
                  {change.kind === 'added' ? (
                    <span className="muted">absent</span>
                  ) : (
                    <del className={styles.before}>
                      <code>{formatDiffValue(change.before)}</code>
                    </del>
                  )}
                </td>
                <td role="cell" data-label="After">
                  {change.kind === 'removed' ? (
                    <span className="muted">absent</span>
                  ) : (
                    <ins className={styles.after}>
                      <code>{formatDiffValue(change.after)}</code>
                    </ins>
                  )}
                </td>
              </tr>
            ),
          )}
        </tbody>
      </table>
    </div>
  );
}
