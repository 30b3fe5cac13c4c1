'use client';

import { useActionState } from 'react';
import { fieldError, IDLE, submitted } from '@/server/action-state';
import { renameWorkspaceAction } from '@/server/actions/workspace.actions';
import { ActionFeedback } from '../action-feedback';
import { TextField, formStyles } from '../form-fields';
import { SubmitButton } from '../submit-button';

export function RenameWorkspaceForm({ workspaceId, name }: { workspaceId: string; name: string }) {
  const [state, action] = useActionState(renameWorkspaceAction, IDLE);
  return (
    <form action={action} className="stack-sm">
      <ActionFeedback state={state} context="The workspace was not renamed" />
      <input type="hidden" name="workspaceId" value={workspaceId} />
      <div className={formStyles.inline}>
        <TextField
          id="rename-workspace"
          name="name"
          label="Name"
          defaultValue={submitted(state, 'name', name)}
          required
          maxLength={100}
          error={fieldError(state, 'name')}
        />
        <SubmitButton variant="secondary" pendingLabel="Renaming…">
          Rename
        </SubmitButton>
      </div>
    </form>
  );
}
