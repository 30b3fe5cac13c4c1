'use client';

import { Button } from '../button';
import { formStyles } from '../form-fields';
import { PLACEHOLDER, type KeyedRow } from './source-document';
import styles from './source-editor.module.css';

/**
 * Env variables or headers: one row per key. A value is what runs, so the hint says how to keep a secret out of
 * the document (`${NAME}` binds it to a variable) and what `[REDACTED]` means (the stored value is kept).
 */
export function KeyedRowsField({
  id,
  legend,
  keyLabel,
  rows,
  error,
  onChange,
}: {
  id: string;
  legend: string;
  keyLabel: string;
  rows: readonly KeyedRow[];
  error?: string | undefined;
  onChange: (rows: KeyedRow[]) => void;
}) {
  const set = (index: number, row: KeyedRow) => onChange(rows.map((item, at) => (at === index ? row : item)));
  return (
    <fieldset
      className={formStyles.fieldset}
      aria-describedby={[`${id}-hint`, error ? `${id}-error` : ''].filter(Boolean).join(' ')}
    >
      <legend>{legend}</legend>
      <span id={`${id}-hint`} className={formStyles.hint}>
        Write a value as {'${NAME}'} to bind it to a variable (set under Variables). {PLACEHOLDER} keeps the
        stored value.
      </span>
      {rows.length === 0 ? <p className="muted">None.</p> : null}
      <ul className={styles.rows}>
        {rows.map((row, index) => (
          <li key={index} className={styles.row}>
            <input
              className={formStyles.input}
              aria-label={`${keyLabel} ${index + 1}`}
              value={row.key}
              onChange={(event) => set(index, { ...row, key: event.target.value })}
              spellCheck={false}
              autoComplete="off"
            />
            <input
              className={`${formStyles.input} mono`}
              aria-label={`Value of ${row.key || `${keyLabel.toLowerCase()} ${index + 1}`}`}
              value={row.value}
              onChange={(event) => set(index, { ...row, value: event.target.value })}
              spellCheck={false}
              autoComplete="off"
            />
            <Button
              size="small"
              variant="ghost"
              onClick={() => onChange(rows.filter((_, at) => at !== index))}
              aria-label={`Remove ${row.key || `${keyLabel.toLowerCase()} ${index + 1}`}`}
            >
              Remove
            </Button>
          </li>
        ))}
      </ul>
      <div>
        <Button size="small" onClick={() => onChange([...rows, { key: '', value: '' }])}>
          Add {keyLabel.toLowerCase()}
        </Button>
      </div>
      {error ? (
        <span id={`${id}-error`} className={formStyles.error} data-field-error={id}>
          {error}
        </span>
      ) : null}
    </fieldset>
  );
}
