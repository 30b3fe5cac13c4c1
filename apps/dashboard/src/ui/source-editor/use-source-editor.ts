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
import type { DefinitionTier } from '@/views/definition-views';
import { decodedProblems, documentErrors, safeCompact } from './preview-readings';
import { refusedEntries } from './save-preview';
import { documentOf, mergeImported, toJson, toText, type EditorDocument } from './source-document';
import { useEntryEditing } from './use-entry-editing';

export type EditorMode = 'form' | 'json';

export interface VersionConflict {
  readonly stored: StoredVersion;
  readonly mine: string;
}

/**
 * The source editor's state: the document (as entries or as JSON text), the entry being edited, and the
 * preview-then-save round trip with the API, including a version conflict and the choice it offers.
 */
export function useSourceEditor(settings: {
  tier: DefinitionTier;
  workspaceId: string;
  initialName: string | null;
  initialVersion: number | null;
  initialDocument: Record<string, unknown> | null;
}) {
  const { tier, workspaceId, initialDocument } = settings;
  const [document, setDocument] = useState<EditorDocument>(() =>
    documentOf(initialDocument ?? { mcpServers: {} }),
  );
  const [mode, setMode] = useState<EditorMode>('form');
  const [jsonText, setJsonText] = useState(() => toText(documentOf(initialDocument ?? { mcpServers: {} })));
  const [jsonError, setJsonError] = useState<string | null>(null);
  const [sourceName, setSourceName] = useState(settings.initialName ?? '');
  const [expectedVersion, setExpectedVersion] = useState(settings.initialVersion);
  const [preview, setPreview] = useState<{ preview: SourcePreview; of: string } | null>(null);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [conflict, setConflict] = useState<VersionConflict | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const previewHeading = useRef<HTMLDivElement>(null);

  const tenantWide = tier === 'managed' || tier === 'plugin';
  const entries = useEntryEditing(document, changed);

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

  function switchMode(next: EditorMode) {
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

  function editJson(text: string) {
    setJsonText(text);
    setSaved(null);
  }

  /** Keeps my document and saves it on top of the stored version (the conflict's first choice). */
  function keepMine(stored: StoredVersion) {
    setExpectedVersion(stored.version);
    setConflict(null);
    setProblem(null);
  }

  /** Drops my document for the stored one (the conflict's second choice). */
  function loadStored(stored: StoredVersion) {
    const loaded = documentOf(stored.editableDocument ?? { mcpServers: {} });
    setDocument(loaded);
    setJsonText(toText(loaded));
    keepMine(stored);
  }

  const current = mode === 'form' ? JSON.stringify(toJson(document)) : null;
  const previewCurrent =
    preview !== null && (mode === 'json' ? preview.of === safeCompact(jsonText) : preview.of === current);
  const refused = preview === null ? [] : refusedEntries(preview.preview);
  const canSave = previewCurrent && refused.length === 0 && preview?.preview.nextVersion !== null && !pending;
  const entryState = new Map((preview?.preview.entries ?? []).map((entry) => [entry.name, entry]));

  return {
    tenantWide,
    sourceName,
    setSourceName,
    mode,
    switchMode,
    importFile,
    notice,
    document,
    entryState,
    decodedFor: (name: string) => decodedProblems(entryState.get(name)),
    ...entries,
    jsonText,
    editJson,
    jsonError,
    docErrors: documentErrors(problem),
    problem,
    conflict,
    keepMine,
    loadStored,
    preview: preview?.preview ?? null,
    previewHeading,
    previewCurrent,
    saved,
    pending,
    runPreview,
    runSave,
    canSave,
    refused,
  };
}

export type SourceEditorState = ReturnType<typeof useSourceEditor>;
