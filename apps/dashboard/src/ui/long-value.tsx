'use client';

import { Button } from './button';
import { useClipboardCopy } from './use-clipboard-copy';
import styles from './long-value.module.css';

/**
 * A long value (a fingerprint, an identity key, an id) that never widens the page: it wraps at any character,
 * or shows its start and end when `truncate` (the whole value in its title and the copy button), with a small
 * copy button that says whether it copied.
 */
export function LongValue({
  value,
  label,
  truncate = false,
  muted = false,
}: {
  value: string;
  /** What is copied, for the button's accessible name ("Copy fingerprint"). */
  label: string;
  truncate?: boolean;
  muted?: boolean;
}) {
  const { status, copy } = useClipboardCopy(value);
  const shown = truncate && value.length > 28 ? `${value.slice(0, 16)}…${value.slice(-8)}` : value;
  return (
    <span className={styles.longValue} data-long-value>
      <code className={[styles.value, muted ? 'muted' : ''].filter(Boolean).join(' ')} title={value}>
        {shown}
      </code>
      <Button variant="ghost" size="small" className={styles.copy} onClick={copy}>
        Copy<span className="visually-hidden"> {label}</span>
      </Button>
      <span role="status" aria-live="polite" className={styles.status}>
        {status === 'copied' ? 'Copied.' : status === 'failed' ? 'Copy failed: select the text.' : ''}
      </span>
    </span>
  );
}
