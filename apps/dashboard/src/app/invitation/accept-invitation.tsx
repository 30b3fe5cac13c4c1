'use client';

import { useActionState, useEffect, useState } from 'react';
import { fieldError, IDLE, submitted } from '@/server/action-state';
import {
  acceptInvitationSignedInAction,
  acceptInvitationWithPasswordAction,
  previewInvitationAction,
  type PreviewResult,
} from '@/server/actions/invitation.actions';
import { ActionFeedback } from '@/ui/action-feedback';
import { formatDateTime } from '@/ui/date-time';
import { Callout, ProblemCallout } from '@/ui/feedback';
import { TextField, formStyles } from '@/ui/form-fields';
import { SubmitButton } from '@/ui/submit-button';

type Loaded = { readonly secret: string; readonly result: PreviewResult } | null;

/** Reads the secret from the fragment, shows what it invites to, and accepts it one of two ways. */
export function AcceptInvitation({ signedInAs }: { signedInAs: string | null }) {
  const [loaded, setLoaded] = useState<Loaded>(null);
  const [signedIn, signedInAction] = useActionState(acceptInvitationSignedInAction, IDLE);
  const [withPassword, withPasswordAction] = useActionState(acceptInvitationWithPasswordAction, IDLE);

  useEffect(() => {
    const secret = window.location.hash.replace(/^#/, '');
    let current = true;
    void previewInvitationAction(secret).then((result) => {
      if (current) setLoaded({ secret, result });
    });
    return () => {
      current = false;
    };
  }, []);

  if (loaded === null) return <p className="muted">Reading the invitation…</p>;
  if (!loaded.result.ok) {
    return <ProblemCallout problem={loaded.result.problem} context="This invitation cannot be used" />;
  }
  const { preview } = loaded.result;
  const { secret } = loaded;
  const sameAddress = signedInAs !== null && signedInAs === preview.email;
  return (
    <div className="stack" data-invitation-preview>
      <p>
        You are invited to <strong>{preview.tenant.name}</strong> as <strong>{preview.role}</strong>, as{' '}
        <strong>{preview.email}</strong>. The link works until {formatDateTime(preview.expiresAt)}.
      </p>
      {signedInAs !== null ? (
        sameAddress ? (
          <form action={signedInAction} className="stack-sm">
            <ActionFeedback state={signedIn} context="The invitation was not accepted" />
            <input type="hidden" name="secret" value={secret} />
            <SubmitButton pendingLabel="Joining…">Join {preview.tenant.name}</SubmitButton>
          </form>
        ) : (
          <Callout tone="warning" title="Signed in as another address">
            <p>
              You are signed in as {signedInAs}. This invitation is for {preview.email}: sign out, then open
              the link again.
            </p>
          </Callout>
        )
      ) : (
        <form action={withPasswordAction} className={formStyles.form} noValidate>
          <ActionFeedback state={withPassword} context="The invitation was not accepted" />
          <input type="hidden" name="secret" value={secret} />
          <p className="muted">
            Have an account for {preview.email}? Enter its password. New here? Choose a display name and a
            password to create it.
          </p>
          <TextField
            id="invitation-display-name"
            name="displayName"
            label="Display name (only to create the account)"
            autoComplete="name"
            defaultValue={submitted(withPassword, 'displayName')}
            error={fieldError(withPassword, 'displayName')}
          />
          <TextField
            id="invitation-password"
            name="password"
            type="password"
            label="Password"
            autoComplete="current-password"
            required
            error={fieldError(withPassword, 'password')}
          />
          <div className={formStyles.actions}>
            <SubmitButton pendingLabel="Joining…">Accept and sign in</SubmitButton>
          </div>
        </form>
      )}
    </div>
  );
}
