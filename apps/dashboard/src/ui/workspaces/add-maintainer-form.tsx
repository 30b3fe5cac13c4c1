'use client';

import { useActionState } from 'react';
import { fieldError, IDLE } from '@/server/action-state';
import { addMaintainerAction } from '@/server/actions/workspace.actions';
import { ActionFeedback } from '../action-feedback';
import { SelectField, formStyles } from '../form-fields';
import { SubmitButton } from '../submit-button';

export function AddMaintainerForm({
  workspaceId,
  candidates,
}: {
  workspaceId: string;
  candidates: readonly { userId: string; label: string }[];
}) {
  const [state, action] = useActionState(addMaintainerAction, IDLE);
  if (candidates.length === 0) {
    return <p className="muted">Every member already maintains this workspace.</p>;
  }
  return (
    <form action={action} className="stack-sm">
      <ActionFeedback state={state} context="The maintainer was not added" />
      <input type="hidden" name="workspaceId" value={workspaceId} />
      <div className={formStyles.inline}>
        <SelectField
          id="maintainer-user"
          name="userId"
          label="Member"
          options={candidates.map((candidate) => ({ value: candidate.userId, label: candidate.label }))}
          error={fieldError(state, 'userId')}
        />
        <SubmitButton variant="secondary" pendingLabel="Adding…">
          Add maintainer
        </SubmitButton>
      </div>
    </form>
  );
}
