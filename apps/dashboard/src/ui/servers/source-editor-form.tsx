'use client';

import { useActionState, useState } from 'react';
import { fieldError, IDLE, type ActionState } from '../../server/action-state';
import { putDefinitionSourceAction } from '../../server/actions/definition.actions';
import { messageInWords } from '../../server/problem-words';
import type { DefinitionTier } from '../../views/definition-views';
import { ActionFeedback } from '../action-feedback';
import { TextField, formStyles } from '../form-fields';
import { SubmitButton } from '../submit-button';
import styles from './servers.module.css';

/** The API's `document.<path>` errors, as paths inside the document the person typed. */
function documentErrors(state: ActionState): { path: string; message: string }[] {
  if (state.status !== 'error') return [];
  return state.problem.errors
    .filter((error) => error.path === 'document' || error.path.startsWith('document.'))
    .map((error) => ({ path: error.path.replace(/^document\.?/, ''), message: messageInWords(error.message) }));
}

/**
 * The JSON editor of one tier's source. The text is a controlled field: it stays in the browser across a
 * refused save (React resets uncontrolled fields after an action), and is never echoed back by the server.
 * Errors the API names by path appear under the editor, each with its path inside the document.
 */
export function SourceEditorForm({
  tier,
  workspaceId,
  name,
  expectedVersion,
  initialText,
}: {
  tier: DefinitionTier;
  workspaceId: string;
  /** managed and plugin: the origin's name, editable only when the source is new. */
  name?: { value: string; editable: boolean };
  expectedVersion: number | null;
  initialText: string;
}) {
  const [state, action] = useActionState(putDefinitionSourceAction, IDLE);
  const [text, setText] = useState(initialText);
  const errors = documentErrors(state);
  const invalid = errors.length > 0;
  return (
    <form action={action} className="stack-sm">
      <ActionFeedback state={state} context="The source was not saved" />
      <input type="hidden" name="tier" value={tier} />
      <input type="hidden" name="workspaceId" value={workspaceId} />
      {expectedVersion !== null ? (
        <input type="hidden" name="expectedVersion" value={String(expectedVersion)} />
      ) : null}
      {name ? (
        name.editable ? (
          <TextField
            id="source-name"
            name="name"
            label="Source name"
            hint="Letters, digits, dot, underscore and dash; for example org-policy."
            defaultValue={name.value}
            required
            maxLength={100}
            error={fieldError(state, 'name')}
          />
        ) : (
          <input type="hidden" name="name" value={name.value} />
        )
      ) : null}
      <div className={styles.editorField}>
        <label className={formStyles.label} htmlFor="source-document">
          Document (JSON)
        </label>
        <span id="source-document-hint" className={formStyles.hint}>
          The whole {'{ "mcpServers": { … } }'} document, as in .mcp.json. Where a value was shown as [REDACTED],
          sending [REDACTED] back keeps the stored value.
        </span>
        <textarea
          id="source-document"
          name="document"
          className={styles.editor}
          value={text}
          onChange={(event) => setText(event.target.value)}
          spellCheck={false}
          autoComplete="off"
          aria-invalid={invalid ? true : undefined}
          aria-describedby={invalid ? 'source-document-hint source-document-error' : 'source-document-hint'}
        />
        {invalid ? (
          <ul id="source-document-error" className={styles.pathErrors} data-field-error="document">
            {errors.map((error) => (
              <li key={`${error.path}:${error.message}`}>
                {error.path ? <code>{error.path}</code> : 'Document'}: {error.message}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <div>
        <SubmitButton pendingLabel="Saving…">Save source</SubmitButton>
      </div>
    </form>
  );
}
