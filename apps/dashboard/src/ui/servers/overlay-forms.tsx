'use client';

import { useActionState } from 'react';
import { fieldError, IDLE, submitted, type ActionState } from '@/server/action-state';
import { disableServerAction, enableServerAction } from '@/server/actions/definition.actions';
import { ActionFeedback } from '../action-feedback';
import { SelectField, TextField, formStyles } from '../form-fields';
import { SubmitButton } from '../submit-button';

function latest(a: ActionState, b: ActionState): ActionState {
  const at = (state: ActionState) => (state.status === 'idle' ? 0 : state.at);
  return at(a) >= at(b) ? a : b;
}

/**
 * Disables a server with a reason, for everyone in the workspace (admins and maintainers) or for the person,
 * and enables it again. Reversible and touching no definition, so no confirmation: enabling gives the identical
 * entry back. One component for both, so the outcome (with the reason given) stays shown after the page
 * refreshes into the other state.
 */
export function ServerOverlayControl({
  workspaceId,
  serverName,
  workspaceScope,
  disabledBy,
}: {
  workspaceId: string;
  serverName: string;
  /** Whether the person may disable it for the whole workspace. */
  workspaceScope: boolean;
  /** The overlay in force, if any (the effective view's reason). */
  disabledBy: 'workspace' | 'user' | null;
}) {
  const [disableState, disable] = useActionState(disableServerAction, IDLE);
  const [enableState, enable] = useActionState(enableServerAction, IDLE);
  const outcome = latest(disableState, enableState);
  const mayEnable = disabledBy === 'user' || (disabledBy === 'workspace' && workspaceScope);
  return (
    <div className="stack-sm">
      <ActionFeedback state={outcome} context="The change was not made" />
      {disabledBy === null ? (
        <form action={disable} className={formStyles.inline}>
          <input type="hidden" name="workspaceId" value={workspaceId} />
          <input type="hidden" name="serverName" value={serverName} />
          {workspaceScope ? (
            <SelectField
              id="disable-scope"
              name="scope"
              label="Disable for"
              options={[
                { value: 'workspace', label: 'Everyone in this workspace' },
                { value: 'user', label: 'Only me' },
              ]}
            />
          ) : (
            <input type="hidden" name="scope" value="user" />
          )}
          <TextField
            id="disable-reason"
            name="reason"
            label="Reason (optional)"
            maxLength={200}
            defaultValue={submitted(disableState, 'reason')}
            error={fieldError(disableState, 'reason')}
          />
          <SubmitButton variant="dangerOutline" pendingLabel="Disabling…">
            Disable server
          </SubmitButton>
        </form>
      ) : mayEnable ? (
        <form action={enable}>
          <input type="hidden" name="workspaceId" value={workspaceId} />
          <input type="hidden" name="serverName" value={serverName} />
          <input type="hidden" name="scope" value={disabledBy} />
          <SubmitButton variant="secondary" pendingLabel="Enabling…">
            Enable server
          </SubmitButton>
        </form>
      ) : (
        <p className="muted">
          An admin or a maintainer of this workspace disabled it; they can enable it again.
        </p>
      )}
    </div>
  );
}
