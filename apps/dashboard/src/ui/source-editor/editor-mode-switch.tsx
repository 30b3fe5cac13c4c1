'use client';

import { Button } from '@/ui/button';
import styles from './source-editor.module.css';
import type { EditorMode } from './use-source-editor';

/** The two ways to edit a source: one entry at a time, or the whole document as JSON. */
export function EditorModeSwitch({
  mode,
  onSwitch,
}: {
  mode: EditorMode;
  onSwitch: (next: EditorMode) => void;
}) {
  return (
    <div className={styles.actions} role="group" aria-label="Editor mode">
      <Button className={styles.modeButton} aria-pressed={mode === 'form'} onClick={() => onSwitch('form')}>
        Entry by entry
      </Button>
      <Button className={styles.modeButton} aria-pressed={mode === 'json'} onClick={() => onSwitch('json')}>
        As JSON
      </Button>
    </div>
  );
}
