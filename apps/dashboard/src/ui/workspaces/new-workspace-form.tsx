'use client';

import { useActionState } from 'react';
import { fieldError, IDLE, submitted } from '@/server/action-state';
import { createWorkspaceAction } from '@/server/actions/workspace.actions';
import { ActionFeedback } from '../action-feedback';
import { ButtonLink } from '../button';
import { TextField, formStyles } from '../form-fields';
import { SubmitButton } from '../submit-button';

export function NewWorkspaceForm() {
  const [state, action] = useActionState(createWorkspaceAction, IDLE);
  return (
    <form action={action} className={formStyles.form}>
      <ActionFeedback state={state} context="The workspace was not created" />
      <TextField
        id="workspace-name"
        name="name"
        label="Name"
        required
        maxLength={100}
        defaultValue={submitted(state, 'name')}
        hint="Letters, digits, spaces, dots, underscores and dashes; unique in this tenant."
        error={fieldError(state, 'name')}
      />
      <TextField
        id="workspace-repository"
        name="repositoryIdentity"
        label="Repository (optional)"
        maxLength={500}
        defaultValue={submitted(state, 'repositoryIdentity')}
        placeholder="github.com/acme/platform"
        hint="The canonical repository URL or id this workspace stands for. Approvals are bound to it."
        error={fieldError(state, 'repositoryIdentity')}
      />
      <div className={formStyles.actions}>
        <SubmitButton pendingLabel="Creating…">Create workspace</SubmitButton>
        <ButtonLink href="/workspaces" variant="ghost">
          Cancel
        </ButtonLink>
      </div>
    </form>
  );
}
