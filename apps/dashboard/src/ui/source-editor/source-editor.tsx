'use client';

import type { DefinitionTier } from '@/views/definition-views';
import { Callout, ProblemCallout } from '@/ui/feedback';
import { TextField } from '@/ui/form-fields';
import { DocumentErrorList } from './document-error-list';
import { EditorModeSwitch } from './editor-mode-switch';
import { EntriesEditor } from './entries-editor';
import { ImportFileField } from './import-file-field';
import { JsonDocumentField } from './json-document-field';
import { SaveControls } from './save-controls';
import { SavePreview } from './save-preview';
import { useSourceEditor } from './use-source-editor';
import { VersionConflict } from './version-conflict';

/**
 * The source editor (docs/architecture/definitions.md): the stored document as the API shows it for editing
 * (secrets as `[REDACTED]`, kept on save), one entry at a time in a form or the whole document as JSON, a
 * `.mcp.json` file imported into it, and a save that first shows what it does (the API's dry run) and is
 * refused while an entry does not decode. A version conflict shows both versions. Nothing typed here is sent
 * anywhere but the API.
 */
export function SourceEditor({
  tier,
  workspaceId,
  name: initialName,
  nameEditable,
  expectedVersion: initialVersion,
  initialDocument,
  setVariables,
  variablesHref,
}: {
  tier: DefinitionTier;
  workspaceId: string;
  /** managed and plugin sources: the origin's name. */
  name: string | null;
  nameEditable: boolean;
  expectedVersion: number | null;
  initialDocument: Record<string, unknown> | null;
  setVariables: readonly string[];
  variablesHref: string;
}) {
  const editor = useSourceEditor({ tier, workspaceId, initialName, initialVersion, initialDocument });
  const { mode, problem, conflict, preview } = editor;

  return (
    <div className="stack">
      {editor.tenantWide && nameEditable ? (
        <TextField
          id="source-name"
          label="Source name"
          hint="Letters, digits, dot, underscore and dash; for example org-policy."
          value={editor.sourceName}
          onChange={(event) => editor.setSourceName(event.target.value)}
          required
          maxLength={100}
          autoComplete="off"
        />
      ) : null}

      <EditorModeSwitch mode={mode} onSwitch={editor.switchMode} />
      <ImportFileField onFile={(file) => void editor.importFile(file)} />
      {editor.notice ? (
        <Callout tone="info" live>
          <p>{editor.notice}</p>
        </Callout>
      ) : null}

      {mode === 'form' ? (
        <EntriesEditor editor={editor} setVariables={setVariables} variablesHref={variablesHref} />
      ) : (
        <JsonDocumentField
          text={editor.jsonText}
          onChange={editor.editJson}
          jsonError={editor.jsonError}
          errors={editor.docErrors}
        />
      )}

      {mode === 'form' && editor.docErrors.length > 0 ? (
        <DocumentErrorList errors={editor.docErrors} />
      ) : null}
      {problem !== null && problem.code !== 'conflict' ? (
        <ProblemCallout problem={problem} context="The source was not saved" />
      ) : null}

      {conflict !== null ? (
        <VersionConflict conflict={conflict} onKeepMine={editor.keepMine} onLoadStored={editor.loadStored} />
      ) : null}

      {preview !== null ? (
        <div ref={editor.previewHeading} tabIndex={-1}>
          <SavePreview preview={preview} />
          {!editor.previewCurrent ? (
            <p className="muted">The document changed since this preview: preview again before saving.</p>
          ) : null}
        </div>
      ) : null}
      {editor.saved ? (
        <Callout tone="success" live>
          <p>{editor.saved}</p>
        </Callout>
      ) : null}

      <SaveControls editor={editor} />
    </div>
  );
}
