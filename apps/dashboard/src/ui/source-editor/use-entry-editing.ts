'use client';

import { useRef, useState } from 'react';
import {
  entryOf,
  formProblems,
  withEntry,
  withoutEntry,
  type EditorDocument,
  type EntryForm,
  type Transport,
} from './source-document';

export interface Editing {
  readonly previousName: string | null;
  readonly before: Transport | null;
  readonly form: EntryForm;
}

/** The one entry open in the form, if any: opening it, changing it, and applying it to the document. */
export function useEntryEditing(document: EditorDocument, changed: (next: EditorDocument) => void) {
  const [editing, setEditing] = useState<Editing | null>(null);
  const formStart = useRef<HTMLDivElement>(null);

  function open(next: Editing) {
    setEditing(next);
    requestAnimationFrame(() => formStart.current?.querySelector<HTMLInputElement>('#entry-name')?.focus());
  }

  function removeEntry(name: string) {
    changed(withoutEntry(document, name));
    if (editing?.previousName === name) setEditing(null);
  }

  /** The names of the other entries: the one being edited may keep its own. */
  function otherNames(current: Editing): string[] {
    return document.entries.map(([name]) => name).filter((name) => name !== current.previousName);
  }

  function applyEditing() {
    if (editing === null) return;
    if (Object.keys(formProblems(editing.form, otherNames(editing))).length > 0) return;
    changed(
      withEntry(
        document,
        editing.previousName,
        editing.form.name.trim(),
        entryOf(editing.form, editing.before),
      ),
    );
    setEditing(null);
  }

  return {
    editing,
    open,
    formStart,
    otherNames,
    editForm: (form: EntryForm) => setEditing(editing === null ? null : { ...editing, form }),
    cancelEditing: () => setEditing(null),
    applyEditing,
    removeEntry,
  };
}
