'use client';

import { useRef, useState, useTransition } from 'react';
import type { ApiProblem } from '@/server/api-problem';
import {
  previewSourceAction,
  saveSourceAction,
  type SourcePreview,
  type StoredVersion,
} from '@/server/actions/source-editor.actions';
import { parseDefinitionDocument } from '@/server/definition-document';
import { messageInWords } from '@/server/problem-words';
import type { DefinitionTier } from '@/views/definition-views';
import { Button } from '../button';
import { Badge, Callout, ProblemCallout } from '../feedback';
import { TextField, formStyles } from '../form-fields';
import serverStyles from '../servers/servers.module.css';
import { EntryFormView } from './entry-form';
import { refusedEntries, SavePreview } from './save-preview';
import {
  documentOf,
  emptyForm,
  entryOf,
  fieldOfProblemPath,
  formOf,
  formProblems,
  mergeImported,
  toJson,
  toText,
  transportOf,
  withEntry,
  withoutEntry,
  type EditorDocument,
  type EntryForm,
  type RawEntry,
  type Transport,
} from './source-document';
import { describeProblem } from '../servers/definition-labels';
import styles from './source-editor.module.css';

type Mode = 'form' | 'json';

interface Editing {
  readonly previousName: string | null;
  readonly before: Transport | null;
  readonly form: EntryForm;
}

function targetOf(entry: RawEntry): string {
  if (transportOf(entry) === 'http') return typeof entry['url'] === 'string' ? entry['url'] : '';
  const args = Array.isArray(entry['args']) ? entry['args'].map(String) : [];
  return [typeof entry['command'] === 'string' ? entry['command'] : '', ...args].join(' ');
}

/** The API's `document.<path>` errors, as paths inside the document. */
function documentErrors(problem: ApiProblem | null): { path: string; message: string }[] {
  if (problem === null) return [];
  return problem.errors
    .filter((error) => error.path === 'document' || error.path.startsWith('document.'))
    .map((error) => ({
      path: error.path.replace(/^document\.?/, ''),
      message: messageInWords(error.message),
    }));
}

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
  const [document, setDocument] = useState<EditorDocument>(() =>
    documentOf(initialDocument ?? { mcpServers: {} }),
  );
  const [mode, setMode] = useState<Mode>('form');
  const [jsonText, setJsonText] = useState(() => toText(documentOf(initialDocument ?? { mcpServers: {} })));
  const [jsonError, setJsonError] = useState<string | null>(null);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [sourceName, setSourceName] = useState(initialName ?? '');
  const [expectedVersion, setExpectedVersion] = useState(initialVersion);
  const [preview, setPreview] = useState<{ preview: SourcePreview; of: string } | null>(null);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [conflict, setConflict] = useState<{ stored: StoredVersion; mine: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const previewHeading = useRef<HTMLDivElement>(null);
  const formStart = useRef<HTMLDivElement>(null);

  const tenantWide = tier === 'managed' || tier === 'plugin';

  /** The document to send: the form's, or the JSON text when it parses (null otherwise, with the reason shown). */
  function currentDocument(): Record<string, unknown> | null {
    if (mode === 'form') return toJson(document);
    const parsed = parseDefinitionDocument(jsonText);
    if (!parsed.ok) {
      setJsonError(parsed.message);
      return null;
    }
    setJsonError(null);
    return { ...parsed.document };
  }

  function inputOf(value: Record<string, unknown>) {
    return {
      tier,
      ...(tenantWide ? { name: sourceName.trim() } : {}),
      ...(tier === 'project' || tier === 'local' ? { workspaceId } : {}),
      ...(expectedVersion !== null ? { expectedVersion } : {}),
      document: value,
    };
  }

  function changed(next: EditorDocument) {
    setDocument(next);
    setSaved(null);
  }

  function switchMode(next: Mode) {
    if (next === mode) return;
    if (next === 'json') {
      setJsonText(toText(document));
      setJsonError(null);
      setMode('json');
      return;
    }
    const parsed = parseDefinitionDocument(jsonText);
    if (!parsed.ok) {
      setJsonError(`${parsed.message} Fix it to edit entry by entry.`);
      return;
    }
    setDocument(documentOf(parsed.document));
    setJsonError(null);
    setMode('form');
  }

  function runPreview() {
    const value = currentDocument();
    if (value === null) return;
    if (tenantWide && sourceName.trim() === '') {
      setProblem(null);
      setJsonError(null);
      setNotice(`A ${tier} source needs a name: enter it above.`);
      return;
    }
    setNotice(null);
    setSaved(null);
    startTransition(async () => {
      const answer = await previewSourceAction(inputOf(value));
      if (answer.ok) {
        setProblem(null);
        setPreview({ preview: answer.preview, of: JSON.stringify(value) });
        setConflict(null);
        requestAnimationFrame(() => previewHeading.current?.focus());
      } else {
        setPreview(null);
        setProblem(answer.problem);
        if (answer.stored !== null)
          setConflict({ stored: answer.stored, mine: JSON.stringify(value, null, 2) });
      }
    });
  }

  function runSave() {
    const value = currentDocument();
    if (value === null || preview === null) return;
    startTransition(async () => {
      const answer = await saveSourceAction(inputOf(value));
      if (answer.ok) {
        setProblem(null);
        setPreview(null);
        setExpectedVersion(answer.version);
        setSaved(answer.message);
        const stored = documentOf(answer.editableDocument ?? value);
        setDocument(stored);
        setJsonText(toText(stored));
        return;
      }
      setProblem(answer.problem);
      setPreview(null);
      if (answer.stored !== null)
        setConflict({ stored: answer.stored, mine: JSON.stringify(value, null, 2) });
    });
  }

  async function importFile(file: File) {
    const parsed = parseDefinitionDocument(await file.text());
    if (!parsed.ok) {
      setNotice(`${file.name} could not be imported: ${parsed.message}`);
      return;
    }
    const base = mode === 'json' ? parseDefinitionDocument(jsonText) : null;
    const current = base === null ? document : base.ok ? documentOf(base.document) : document;
    const merged = mergeImported(current, documentOf(parsed.document));
    changed(merged.document);
    setJsonText(toText(merged.document));
    setNotice(
      `Imported ${merged.added.length + merged.replaced.length} servers from ${file.name}` +
        (merged.added.length > 0 ? `; added ${merged.added.join(', ')}` : '') +
        (merged.replaced.length > 0 ? `; replaced ${merged.replaced.join(', ')}` : '') +
        '. Preview to see what saving does.',
    );
  }

  function open(next: Editing) {
    setEditing(next);
    requestAnimationFrame(() => formStart.current?.querySelector<HTMLInputElement>('#entry-name')?.focus());
  }

  const current = mode === 'form' ? JSON.stringify(toJson(document)) : null;
  const previewCurrent =
    preview !== null && (mode === 'json' ? preview.of === safeCompact(jsonText) : preview.of === current);
  const refused = preview === null ? [] : refusedEntries(preview.preview);
  const canSave = previewCurrent && refused.length === 0 && preview?.preview.nextVersion !== null && !pending;
  const docErrors = documentErrors(problem);
  const entryState = new Map((preview?.preview.entries ?? []).map((entry) => [entry.name, entry]));

  function decodedFor(name: string): Record<string, string> {
    const entry = entryState.get(name);
    if (!entry) return {};
    const out: Record<string, string> = {};
    for (const found of entry.problems) {
      const path = Array.isArray(found['path']) ? (found['path'] as unknown[]) : [];
      const field = fieldOfProblemPath(path);
      out[field] = [out[field], describeProblem(found)].filter(Boolean).join('; ');
    }
    if (entry.state === 'rejected')
      out['transport'] = 'This transport is not supported: choose stdio or Streamable HTTP.';
    return out;
  }

  return (
    <div className="stack">
      {tenantWide ? (
        nameEditable ? (
          <TextField
            id="source-name"
            label="Source name"
            hint="Letters, digits, dot, underscore and dash; for example org-policy."
            value={sourceName}
            onChange={(event) => setSourceName(event.target.value)}
            required
            maxLength={100}
            autoComplete="off"
          />
        ) : null
      ) : null}

      <div className={styles.actions} role="group" aria-label="Editor mode">
        <Button
          className={styles.modeButton}
          aria-pressed={mode === 'form'}
          onClick={() => switchMode('form')}
        >
          Entry by entry
        </Button>
        <Button
          className={styles.modeButton}
          aria-pressed={mode === 'json'}
          onClick={() => switchMode('json')}
        >
          As JSON
        </Button>
      </div>

      <div className={formStyles.field}>
        <label className={formStyles.label} htmlFor="import-file">
          Import a .mcp.json file
        </label>
        <span id="import-file-hint" className={formStyles.hint}>
          Its servers are added to the document (a server of the same name is replaced). Nothing is saved
          until you preview and save.
        </span>
        <input
          id="import-file"
          type="file"
          accept=".json,application/json"
          aria-describedby="import-file-hint"
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) void importFile(file);
            event.target.value = '';
          }}
        />
      </div>
      {notice ? (
        <Callout tone="info" live>
          <p>{notice}</p>
        </Callout>
      ) : null}

      {mode === 'form' ? (
        <div className="stack-sm">
          {document.entries.length === 0 ? (
            <p className="muted">No servers in this source yet.</p>
          ) : (
            <ul className={styles.entries} aria-label="Servers in this source">
              {document.entries.map(([name, entry]) => {
                const state = entryState.get(name);
                return (
                  <li key={name} className={styles.entry} data-entry={name}>
                    <span className={styles.entryName}>
                      <strong>{name}</strong>
                      <Badge>{transportOf(entry) === 'http' ? 'HTTP' : 'stdio'}</Badge>
                      {state && state.change !== 'unchanged' ? (
                        <Badge tone="caution">{state.change}</Badge>
                      ) : null}
                      {state && state.state !== 'valid' && state.state !== null ? (
                        <Badge tone="negative">does not decode</Badge>
                      ) : null}
                      <span className={styles.entryTarget}>{targetOf(entry)}</span>
                    </span>
                    <span className={styles.actions}>
                      <Button
                        size="small"
                        onClick={() =>
                          open({ previousName: name, before: transportOf(entry), form: formOf(name, entry) })
                        }
                      >
                        Edit <span className="visually-hidden">{name}</span>
                      </Button>
                      <Button
                        size="small"
                        variant="dangerOutline"
                        onClick={() => {
                          changed(withoutEntry(document, name));
                          if (editing?.previousName === name) setEditing(null);
                        }}
                      >
                        Remove <span className="visually-hidden">{name}</span>
                      </Button>
                    </span>
                  </li>
                );
              })}
            </ul>
          )}
          {editing === null ? (
            <div>
              <Button onClick={() => open({ previousName: null, before: null, form: emptyForm() })}>
                Add a server
              </Button>
            </div>
          ) : (
            <div ref={formStart}>
              <EntryFormView
                form={editing.form}
                before={editing.before}
                isNew={editing.previousName === null}
                local={formProblems(
                  editing.form,
                  document.entries.map(([name]) => name).filter((name) => name !== editing.previousName),
                )}
                decoded={editing.previousName === null ? {} : decodedFor(editing.previousName)}
                setVariables={setVariables}
                variablesHref={variablesHref}
                onChange={(form) => setEditing({ ...editing, form })}
                onCancel={() => setEditing(null)}
                onApply={() => {
                  const others = document.entries
                    .map(([name]) => name)
                    .filter((name) => name !== editing.previousName);
                  if (Object.keys(formProblems(editing.form, others)).length > 0) return;
                  changed(
                    withEntry(
                      document,
                      editing.previousName,
                      editing.form.name.trim(),
                      entryOf(editing.form, editing.before),
                    ),
                  );
                  setEditing(null);
                }}
              />
            </div>
          )}
        </div>
      ) : (
        <div className={serverStyles.editorField}>
          <label className={formStyles.label} htmlFor="source-document">
            Document (JSON)
          </label>
          <span id="source-document-hint" className={formStyles.hint}>
            The whole {'{ "mcpServers": { … } }'} document, as in .mcp.json. Where a value shows as
            [REDACTED], leaving it keeps the stored value.
          </span>
          <textarea
            id="source-document"
            className={serverStyles.editor}
            value={jsonText}
            onChange={(event) => {
              setJsonText(event.target.value);
              setSaved(null);
            }}
            spellCheck={false}
            autoComplete="off"
            aria-invalid={docErrors.length > 0 || jsonError !== null ? true : undefined}
            aria-describedby={
              docErrors.length > 0 || jsonError !== null
                ? 'source-document-hint source-document-error'
                : 'source-document-hint'
            }
          />
          {docErrors.length > 0 || jsonError !== null ? (
            <ul id="source-document-error" className={serverStyles.pathErrors} data-field-error="document">
              {jsonError !== null ? <li>{jsonError}</li> : null}
              {docErrors.map((error) => (
                <li key={`${error.path}:${error.message}`}>
                  {error.path ? <code>{error.path}</code> : 'Document'}: {error.message}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      )}

      {mode === 'form' && docErrors.length > 0 ? (
        <ul className={serverStyles.pathErrors} data-field-error="document">
          {docErrors.map((error) => (
            <li key={`${error.path}:${error.message}`}>
              {error.path ? <code>{error.path}</code> : 'Document'}: {error.message}
            </li>
          ))}
        </ul>
      ) : null}
      {problem !== null && problem.code !== 'conflict' ? (
        <ProblemCallout problem={problem} context="The source was not saved" />
      ) : null}

      {conflict !== null ? (
        <section aria-labelledby="conflict-title" className="stack-sm" data-conflict>
          <h3 id="conflict-title">Someone saved version {conflict.stored.version} while you edited</h3>
          <p>
            Your changes are not saved. Here are both versions: keep editing yours on top of theirs, or start
            from theirs.
          </p>
          <div className={styles.versions}>
            <div>
              <h4>Your version</h4>
              <pre aria-label="Your version" tabIndex={0}>
                {conflict.mine}
              </pre>
            </div>
            <div>
              <h4>Stored version {conflict.stored.version}</h4>
              <pre aria-label={`Stored version ${conflict.stored.version}`} tabIndex={0}>
                {JSON.stringify(conflict.stored.editableDocument, null, 2)}
              </pre>
            </div>
          </div>
          <div className={styles.actions}>
            <Button
              onClick={() => {
                setExpectedVersion(conflict.stored.version);
                setConflict(null);
                setProblem(null);
              }}
            >
              Keep mine, on top of version {conflict.stored.version}
            </Button>
            <Button
              variant="ghost"
              onClick={() => {
                const stored = documentOf(conflict.stored.editableDocument ?? { mcpServers: {} });
                setDocument(stored);
                setJsonText(toText(stored));
                setExpectedVersion(conflict.stored.version);
                setConflict(null);
                setProblem(null);
              }}
            >
              Discard mine, load version {conflict.stored.version}
            </Button>
          </div>
        </section>
      ) : null}

      {preview !== null ? (
        <div ref={previewHeading} tabIndex={-1}>
          <SavePreview preview={preview.preview} />
          {!previewCurrent ? (
            <p className="muted">The document changed since this preview: preview again before saving.</p>
          ) : null}
        </div>
      ) : null}
      {saved ? (
        <Callout tone="success" live>
          <p>{saved}</p>
        </Callout>
      ) : null}

      <div className={styles.actions}>
        <Button onClick={runPreview} disabled={pending || editing !== null}>
          {pending ? 'Working…' : 'Preview changes'}
        </Button>
        <Button variant="primary" onClick={runSave} disabled={!canSave} aria-describedby="save-hint">
          Save source
        </Button>
      </div>
      <p id="save-hint" className="muted">
        {editing !== null
          ? 'Apply or cancel the server you are editing first.'
          : canSave
            ? 'Saving writes exactly what the preview shows.'
            : refused.length > 0
              ? 'Saving is refused until every entry decodes.'
              : preview?.preview.nextVersion === null && previewCurrent
                ? 'Nothing to save: the document is the stored one.'
                : 'Preview the changes first: saving shows you what it does before it does it.'}
      </p>
    </div>
  );
}

function safeCompact(text: string): string | null {
  try {
    return JSON.stringify(JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}
