'use client';

import { Button } from '@/ui/button';
import styles from './source-editor.module.css';
import type { SourceEditorState } from './use-source-editor';

function saveHint(editor: SourceEditorState): string {
  if (editor.editing !== null) return 'Apply or cancel the server you are editing first.';
  if (editor.canSave) return 'Saving writes exactly what the preview shows.';
  if (editor.refused.length > 0) return 'Saving is refused until every entry decodes.';
  if (editor.preview?.nextVersion === null && editor.previewCurrent)
    return 'Nothing to save: the document is the stored one.';
  return 'Preview the changes first: saving shows you what it does before it does it.';
}

/** Preview, then save: the save stays disabled until a current preview shows every entry decoding. */
export function SaveControls({ editor }: { editor: SourceEditorState }) {
  return (
    <>
      <div className={styles.actions}>
        <Button onClick={editor.runPreview} disabled={editor.pending || editor.editing !== null}>
          {editor.pending ? 'Working…' : 'Preview changes'}
        </Button>
        <Button
          variant="primary"
          onClick={editor.runSave}
          disabled={!editor.canSave}
          aria-describedby="save-hint"
        >
          Save source
        </Button>
      </div>
      <p id="save-hint" className="muted">
        {saveHint(editor)}
      </p>
    </>
  );
}
