import type { ReactNode } from 'react';
import styles from './form.module.css';

// The hint and the error under a form control, with the ids its aria-describedby names.

export function describedBy(id: string, hint: ReactNode, error: string | undefined): string | undefined {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

export function FieldHint({ id, hint }: { id: string; hint: ReactNode }) {
  return hint ? (
    <span id={`${id}-hint`} className={styles.hint}>
      {hint}
    </span>
  ) : null;
}

export function FieldError({ id, error }: { id: string; error: string | undefined }) {
  return error ? (
    <span id={`${id}-error`} className={styles.error}>
      {error}
    </span>
  ) : null;
}
