'use client';

import { useActionState } from 'react';
import { fieldError, IDLE } from '@/server/action-state';
import {
  chooseServiceCredentialAction,
  completeSignInAction,
  signOutAction,
  signOutServiceCredentialAction,
  startSignInAction,
} from '@/server/actions/oauth.actions';
import { ActionFeedback } from '../action-feedback';
import { TextField, formStyles } from '../form-fields';
import { SubmitButton } from '../submit-button';

/** Sends the browser to the server's authorization server (on success the action redirects away). */
export function SignInForm({
  workspaceId,
  serverName,
  again = false,
}: {
  workspaceId: string;
  serverName: string;
  /** Already signed in: the same sign-in replaces the credential. */
  again?: boolean;
}) {
  const [state, action] = useActionState(startSignInAction, IDLE);
  return (
    <div className="stack-sm">
      <ActionFeedback state={state} context={`Signing in to ${serverName} did not start`} />
      <form action={action}>
        <input type="hidden" name="workspaceId" value={workspaceId} />
        <input type="hidden" name="serverName" value={serverName} />
        <SubmitButton size="small" variant={again ? 'secondary' : 'primary'} pendingLabel="Opening…">
          {again ? 'Sign in again' : 'Sign in'}
          <span className="visually-hidden"> to {serverName}</span>
        </SubmitButton>
      </form>
    </div>
  );
}

/** Deletes the credential first, then asks the issuer to revoke it; reversible only by signing in again. */
export function SignOutForm({
  credentialId,
  target,
  workspaceId,
}: {
  credentialId: string;
  /** What it signs out of, for the button's accessible name. */
  target: string;
  /** The workspace the page shows, to come back to it. */
  workspaceId?: string;
}) {
  const [state, action] = useActionState(signOutAction, IDLE);
  return (
    <div className="stack-sm">
      <ActionFeedback state={state} context="Signing out failed" />
      <form action={action}>
        <input type="hidden" name="credentialId" value={credentialId} />
        {workspaceId ? <input type="hidden" name="workspaceId" value={workspaceId} /> : null}
        <SubmitButton variant="dangerOutline" size="small" pendingLabel="Signing out…">
          Sign out<span className="visually-hidden"> of {target}</span>
        </SubmitButton>
      </form>
    </div>
  );
}

/** The address the authorization server sent the browser back to, pasted once. */
export function CompleteSignInForm() {
  const [state, action] = useActionState(completeSignInAction, IDLE);
  return (
    <div className="stack-sm">
      <ActionFeedback state={state} context="The sign-in was not finished" />
      <form action={action} className={formStyles.inline}>
        <TextField
          id="redirect-url"
          name="redirectUrl"
          label="Address you were sent back to"
          hint="After signing in, the authorization server sends your browser to Gatehouse’s callback. Paste that whole address here; it works once."
          autoComplete="off"
          spellCheck={false}
          mono
          error={fieldError(state, 'redirectUrl')}
        />
        <SubmitButton pendingLabel="Finishing…">Finish sign-in</SubmitButton>
      </form>
    </div>
  );
}

/** Owners and admins: their own sign-in becomes the workspace's, for everyone without one of their own. */
export function ShareSignInForm({
  workspaceId,
  credentialId,
  serverName,
}: {
  workspaceId: string;
  credentialId: string;
  serverName: string;
}) {
  const [state, action] = useActionState(chooseServiceCredentialAction, IDLE);
  return (
    <div className="stack-sm">
      <ActionFeedback state={state} context="The service credential was not changed" />
      <form action={action}>
        <input type="hidden" name="workspaceId" value={workspaceId} />
        <input type="hidden" name="credentialId" value={credentialId} />
        <SubmitButton variant="secondary" size="small" pendingLabel="Sharing…">
          Share with the workspace<span className="visually-hidden"> ({serverName})</span>
        </SubmitButton>
      </form>
    </div>
  );
}

/** Owners and admins: signs the workspace out of its service credential; everyone it served needs a sign-in. */
export function ServiceSignOutForm({
  workspaceId,
  credentialId,
  target,
}: {
  workspaceId: string;
  credentialId: string;
  /** The server address it serves, for the button's accessible name. */
  target: string;
}) {
  const [state, action] = useActionState(signOutServiceCredentialAction, IDLE);
  return (
    <div className="stack-sm">
      <ActionFeedback state={state} context="Signing the workspace out failed" />
      <form action={action}>
        <input type="hidden" name="workspaceId" value={workspaceId} />
        <input type="hidden" name="credentialId" value={credentialId} />
        <SubmitButton variant="dangerOutline" size="small" pendingLabel="Signing out…">
          Sign out<span className="visually-hidden"> the workspace credential for {target}</span>
        </SubmitButton>
      </form>
    </div>
  );
}
