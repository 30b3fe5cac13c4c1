'use client';

import { useActionState } from 'react';
import { IDLE } from '@/server/action-state';
import { changeMemberRoleAction } from '@/server/actions/member.actions';
import { ProblemCallout } from '../feedback';
import { SelectField, formStyles } from '../form-fields';
import { SubmitButton } from '../submit-button';
import { ROLE_OPTIONS } from './roles';

/** The role cell of a member row: a select and a save button; an error shows in the row it belongs to. */
export function MemberRoleForm({ userId, role, name }: { userId: string; role: string; name: string }) {
  const [state, action] = useActionState(changeMemberRoleAction, IDLE);
  return (
    <form action={action} className="stack-sm">
      <input type="hidden" name="userId" value={userId} />
      <div className={formStyles.compact}>
        <SelectField
          id={`role-${userId}`}
          name="role"
          label={`Role of ${name}`}
          hideLabel
          options={ROLE_OPTIONS}
          defaultValue={role}
        />
        <SubmitButton variant="secondary" size="small" pendingLabel="Saving…">
          Save role
        </SubmitButton>
      </div>
      {state.status === 'error' ? <ProblemCallout problem={state.problem} /> : null}
      {state.status === 'success' ? (
        <span role="status" className="muted">
          {state.message}
        </span>
      ) : null}
    </form>
  );
}
