'use client';

import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { useActionState, useState } from 'react';
import { IDLE } from '@/server/action-state';
import { decideApprovalAction } from '@/server/actions/approval.actions';
import { Button } from '../button';
import dialogStyles from '../dialog.module.css';
import { ProblemCallout } from '../feedback';
import { SelectField } from '../form-fields';
import { SubmitButton } from '../submit-button';
import { EXPIRY_DAYS } from './approval-labels';
import { ReasonField } from './reason-field';
import styles from './approvals.module.css';

/**
 * Approve or deny one request, behind a confirmation that says exactly what is decided (Radix AlertDialog, as
 * ConfirmAction: focus starts on Cancel, Escape cancels, focus returns to the trigger). The form carries the
 * fingerprint and identity key the page showed — the compare-and-swap: if the server changed since the page
 * was rendered, the API refuses and the refusal is shown here, in the dialog. Success leaves the page (the
 * action redirects to where the decision is shown).
 */
export function DecisionDialog({
  decision,
  requestId,
  serverName,
  workspaceName,
  fingerprint,
  identityKey,
  returnTo,
}: {
  decision: 'approve' | 'deny';
  requestId: string;
  serverName: string;
  workspaceName: string;
  /** The definition fingerprint on the page (sent as seenFingerprint). */
  fingerprint: string;
  /** The identity key on the page (sent as seenIdentityKey). */
  identityKey: string;
  returnTo: 'queue' | 'request';
}) {
  const [open, setOpen] = useState(false);
  const [state, formAction] = useActionState(decideApprovalAction, IDLE);
  const approve = decision === 'approve';
  const selectId = `expiry-${requestId}`;
  return (
    <AlertDialog.Root open={open} onOpenChange={setOpen}>
      <AlertDialog.Trigger asChild>
        <Button variant={approve ? 'primary' : 'dangerOutline'} size="small">
          {approve ? 'Approve' : 'Deny'}
          <span className="visually-hidden"> {serverName}</span>
        </Button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={dialogStyles.overlay} />
        <AlertDialog.Content className={dialogStyles.content}>
          <AlertDialog.Title className={dialogStyles.title}>
            {approve ? `Approve ${serverName}?` : `Deny ${serverName}?`}
          </AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className={dialogStyles.description}>
              {approve ? (
                <p>
                  {serverName} may run in {workspaceName} exactly as you reviewed it. If its definition,
                  source, repository or workspace generation changes, this approval stops holding and a new
                  request opens.
                </p>
              ) : (
                <p>
                  {serverName} is refused in {workspaceName} until its definition changes, or someone asks
                  approvers to reconsider and they approve it.
                </p>
              )}
              <p>
                Reviewed definition <code>{fingerprint}</code>
              </p>
            </div>
          </AlertDialog.Description>
          {state.status === 'error' && open ? (
            <ProblemCallout problem={state.problem} context="Nothing was decided" />
          ) : null}
          <form action={formAction} className={styles.dialogFields}>
            <input type="hidden" name="requestId" value={requestId} />
            <input type="hidden" name="decision" value={decision} />
            <input type="hidden" name="seenFingerprint" value={fingerprint} />
            <input type="hidden" name="seenIdentityKey" value={identityKey} />
            <input type="hidden" name="returnTo" value={returnTo} />
            {approve ? (
              <SelectField
                id={selectId}
                name="expiresInDays"
                label="Approval holds"
                defaultValue=""
                options={[
                  { value: '', label: 'Until revoked or changed' },
                  ...EXPIRY_DAYS.map((days) => ({
                    value: String(days),
                    label: days === 1 ? 'For 1 day' : `For ${days} days`,
                  })),
                ]}
              />
            ) : null}
            <ReasonField id={`reason-${decision}-${requestId}`} required={!approve} verb={decision} />
            <div className={dialogStyles.footer}>
              <AlertDialog.Cancel asChild>
                <Button variant="secondary">Cancel</Button>
              </AlertDialog.Cancel>
              <SubmitButton
                variant={approve ? 'primary' : 'danger'}
                pendingLabel={approve ? 'Approving…' : 'Denying…'}
              >
                {approve ? `Approve ${serverName}` : `Deny ${serverName}`}
              </SubmitButton>
            </div>
          </form>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
