'use client';

import { useActionState, useEffect, useRef, useState } from 'react';
import { fieldError, IDLE, submitted, type ActionState } from '@/server/action-state';
import { createInvitationAction, type CreateInvitationState } from '@/server/actions/invitation.actions';
import { ActionFeedback } from '../action-feedback';
import { CopyButton } from '../copy-button';
import { formatDateTime } from '../date-time';
import { Callout } from '../feedback';
import { SelectField, TextField, formStyles } from '../form-fields';
import { SubmitButton } from '../submit-button';
import { ROLE_OPTIONS } from './roles';

const INITIAL: CreateInvitationState = { status: 'idle' };

/**
 * Invites an address with a role. The answer is the same whether or not the address has an account; the link
 * (with the invitation's secret in its fragment) is shown once, to be sent to that person.
 */
export function InviteMemberForm() {
  const [state, action] = useActionState(createInvitationAction, INITIAL);
  const [origin, setOrigin] = useState('');
  const linkRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    setOrigin(window.location.origin);
    if (state.status === 'created') linkRef.current?.focus();
  }, [state]);

  const created = state.status === 'created' ? state : null;
  const formState: ActionState = state.status === 'created' ? IDLE : state;
  const link = created ? `${origin}/invitation#${created.secret}` : '';
  return (
    <div className="stack-sm">
      {created ? (
        <div className="stack-sm" data-invitation-created>
          <Callout tone="warning" title={`Send this link to ${created.invitation.email}`} live>
            <p>
              This is the only time the link is shown; Gatehouse keeps only a hash of it. It works once, for
              that address only, until {formatDateTime(created.invitation.expiresAt)}. Lost it? Invite again:
              the new link replaces this one.
            </p>
          </Callout>
          <TextField
            ref={linkRef}
            id="invitation-link"
            label="Invitation link"
            value={link}
            readOnly
            mono
            onFocus={(event) => event.currentTarget.select()}
          />
          <CopyButton value={link} label="Copy link" />
        </div>
      ) : null}
      <form action={action} className="stack-sm">
        <ActionFeedback state={formState} context="The invitation was not sent" />
        <div className={formStyles.inline}>
          <TextField
            id="invite-email"
            name="email"
            type="email"
            label="Email address"
            required
            defaultValue={submitted(formState, 'email')}
            error={fieldError(formState, 'email')}
          />
          <SelectField
            id="invite-role"
            name="role"
            label="Role"
            options={ROLE_OPTIONS}
            defaultValue={submitted(formState, 'role', 'member')}
          />
          <SubmitButton pendingLabel="Inviting…">Invite</SubmitButton>
        </div>
      </form>
    </div>
  );
}
