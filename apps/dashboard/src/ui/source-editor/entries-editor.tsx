'use client';

import { Button } from '@/ui/button';
import { EntryFormView } from './entry-form';
import { EntryList } from './entry-list';
import { emptyForm, formOf, formProblems, transportOf } from './source-document';
import type { SourceEditorState } from './use-source-editor';

/** The document entry by entry: the list of servers and, below it, the add button or the entry being edited. */
export function EntriesEditor({
  editor,
  setVariables,
  variablesHref,
}: {
  editor: SourceEditorState;
  setVariables: readonly string[];
  variablesHref: string;
}) {
  const { editing } = editor;
  return (
    <div className="stack-sm">
      <EntryList
        entries={editor.document.entries}
        entryState={editor.entryState}
        onEdit={(name, entry) =>
          editor.open({ previousName: name, before: transportOf(entry), form: formOf(name, entry) })
        }
        onRemove={editor.removeEntry}
      />
      {editing === null ? (
        <div>
          <Button onClick={() => editor.open({ previousName: null, before: null, form: emptyForm() })}>
            Add a server
          </Button>
        </div>
      ) : (
        <div ref={editor.formStart}>
          <EntryFormView
            form={editing.form}
            before={editing.before}
            isNew={editing.previousName === null}
            local={formProblems(editing.form, editor.otherNames(editing))}
            decoded={editing.previousName === null ? {} : editor.decodedFor(editing.previousName)}
            setVariables={setVariables}
            variablesHref={variablesHref}
            onChange={editor.editForm}
            onCancel={editor.cancelEditing}
            onApply={editor.applyEditing}
          />
        </div>
      )}
    </div>
  );
}
