'use client';

import { useState } from 'react';

export type ClipboardCopyStatus = 'idle' | 'copied' | 'failed';

/** Copies `value` on demand and remembers whether it worked, for a live region to say so. */
export function useClipboardCopy(value: string): { status: ClipboardCopyStatus; copy: () => Promise<void> } {
  const [status, setStatus] = useState<ClipboardCopyStatus>('idle');
  async function copy(): Promise<void> {
    try {
      await navigator.clipboard.writeText(value);
      setStatus('copied');
    } catch {
      setStatus('failed');
    }
  }
  return { status, copy };
}
