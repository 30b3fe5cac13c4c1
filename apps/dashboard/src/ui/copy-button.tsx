'use client';

import { Button } from './button';
import { useClipboardCopy } from './use-clipboard-copy';

/** Copies a value to the clipboard and says so (a polite live region), or says to copy by hand. */
export function CopyButton({ value, label = 'Copy' }: { value: string; label?: string }) {
  const { status, copy } = useClipboardCopy(value);
  return (
    <span className="row">
      <Button variant="primary" onClick={copy}>
        {label}
      </Button>
      <span role="status" aria-live="polite" className="muted">
        {status === 'copied'
          ? 'Copied to the clipboard.'
          : status === 'failed'
            ? 'Copy failed: select the text and copy it.'
            : ''}
      </span>
    </span>
  );
}
