'use client';

import { useActionState } from 'react';
import { fieldError, IDLE, submitted } from '../../server/action-state';
import { addMemberAction } from '../../server/actions/member.actions';
import { ActionFeedback } from '../action-feedback';
import { SelectField, TextField, formStyles } from '../form-fields';
import { SubmitButton } from '../submit-button';
import { ROLE_OPTIONS } from './roles';

export function AddMemberForm() {
  const [state, action] = useActionState(addMemberAction, IDLE);
  return (
    <form action={action} className="stack-sm">
      <ActionFeedback state={state} context="The member was not added" />
      <div className={formStyles.inline}>
        <TextField
          id="member-email"
          name="email"
          type="email"
          label="Email of an existing account"
          required
          defaultValue={submitted(state, 'email')}
          error={fieldError(state, 'email')}
        />
        <SelectField
          id="member-role"
          name="role"
          label="Role"
          options={ROLE_OPTIONS}
          defaultValue={submitted(state, 'role', 'member')}
        />
        <SubmitButton pendingLabel="Adding…">Add member</SubmitButton>
      </div>
    </form>
  );
}
