'use client';

import { useActionState } from 'react';
import { fieldError, IDLE, submitted } from '@/server/action-state';
import { setDefinitionVariableAction } from '@/server/actions/definition.actions';
import { MAX_PATH_SEGMENT_CHARS } from '@/server/problem-words';
import type { VariableScope } from '@/views/definition-views';
import { ActionFeedback } from '../action-feedback';
import { TextField, formStyles } from '../form-fields';
import { SubmitButton } from '../submit-button';

/**
 * Sets or replaces a variable. The value field is a password field that is never pre-filled: a variable is
 * write-only, so what was typed is sent to the API once and never comes back (not even after a refusal).
 */
export function VariableForm({ scope, workspaceId }: { scope: VariableScope; workspaceId: string }) {
  const [state, action] = useActionState(setDefinitionVariableAction, IDLE);
  return (
    <form action={action} className="stack-sm">
      <ActionFeedback state={state} context="The variable was not set" />
      <input type="hidden" name="scope" value={scope} />
      <input type="hidden" name="workspaceId" value={workspaceId} />
      <div className={formStyles.inline}>
        <TextField
          id="variable-name"
          name="name"
          label="Name"
          mono
          required
          maxLength={MAX_PATH_SEGMENT_CHARS}
          pattern="[A-Za-z_][A-Za-z0-9_]*"
          autoComplete="off"
          defaultValue={submitted(state, 'name')}
          hint={`As \${NAME} references it: letters, digits and underscores, at most ${MAX_PATH_SEGMENT_CHARS} characters.`}
          error={fieldError(state, 'name')}
        />
        <TextField
          id="variable-value"
          name="value"
          type="password"
          label="Value"
          required
          autoComplete="new-password"
          hint="Stored encrypted; never shown again."
          error={fieldError(state, 'value')}
        />
        <SubmitButton variant="secondary" pendingLabel="Saving…">
          Set variable
        </SubmitButton>
      </div>
    </form>
  );
}
