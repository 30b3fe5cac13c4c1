'use client';

import { formStyles } from '@/ui/form-fields';
import serverStyles from '@/ui/servers/servers.module.css';
import { DocumentErrorList } from './document-error-list';
import type { DocumentError } from './preview-readings';

/** The whole document as JSON text, with what is wrong with it below. */
export function JsonDocumentField({
  text,
  onChange,
  jsonError,
  errors,
}: {
  text: string;
  onChange: (text: string) => void;
  jsonError: string | null;
  errors: readonly DocumentError[];
}) {
  const invalid = errors.length > 0 || jsonError !== null;
  return (
    <div className={serverStyles.editorField}>
      <label className={formStyles.label} htmlFor="source-document">
        Document (JSON)
      </label>
      <span id="source-document-hint" className={formStyles.hint}>
        The whole {'{ "mcpServers": { … } }'} document, as in .mcp.json. Where a value shows as [REDACTED],
        leaving it keeps the stored value.
      </span>
      <textarea
        id="source-document"
        className={serverStyles.editor}
        value={text}
        onChange={(event) => onChange(event.target.value)}
        spellCheck={false}
        autoComplete="off"
        aria-invalid={invalid ? true : undefined}
        aria-describedby={invalid ? 'source-document-hint source-document-error' : 'source-document-hint'}
      />
      {invalid ? (
        <DocumentErrorList id="source-document-error" jsonError={jsonError} errors={errors} />
      ) : null}
    </div>
  );
}
