'use client';

import { useState } from 'react';
import { Button } from './button';

/** Copies a value to the clipboard and says so (a polite live region), or says to copy by hand. */
export function CopyButton({ value, label = 'Copy' }: { value: string; label?: string }) {
  const [status, setStatus] = useState<'idle' | 'copied' | 'failed'>('idle');
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setStatus('copied');
    } catch {
      setStatus('failed');
    }
  }
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
