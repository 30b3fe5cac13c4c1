'use client';

import { formStyles } from '@/ui/form-fields';

/** Picks a .mcp.json file whose servers are merged into the document; nothing is saved until the preview. */
export function ImportFileField({ onFile }: { onFile: (file: File) => void }) {
  return (
    <div className={formStyles.field}>
      <label className={formStyles.label} htmlFor="import-file">
        Import a .mcp.json file
      </label>
      <span id="import-file-hint" className={formStyles.hint}>
        Its servers are added to the document (a server of the same name is replaced). Nothing is saved until
        you preview and save.
      </span>
      <input
        id="import-file"
        type="file"
        accept=".json,application/json"
        aria-describedby="import-file-hint"
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) onFile(file);
          event.target.value = '';
        }}
      />
    </div>
  );
}
