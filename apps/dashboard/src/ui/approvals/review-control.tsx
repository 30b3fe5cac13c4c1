'use client';

import Link from 'next/link';
import { useActionState } from 'react';
import { IDLE } from '@/server/action-state';
import { requestReviewAction } from '@/server/actions/approval.actions';
import type { EffectiveViewKind } from '@/views/definition-views';
import { ProblemCallout } from '../feedback';
import { SubmitButton } from '../submit-button';
import styles from './approvals.module.css';

/**
 * Where a server's review stands, for anyone who reads the Servers page: a link to the open request (for
 * those who may read the queue), a note that one is open (for those who may not), or "Ask for review" when
 * nothing is open and a decision could help. One component for all three, so the outcome of asking stays
 * announced after the page refreshes into the "open" state.
 */
export function ReviewControl({
  workspaceId,
  serverName,
  view,
  openRequest,
  mayAsk,
  askLabel = 'Ask for review',
  compact = false,
}: {
  workspaceId: string;
  serverName: string;
  view: EffectiveViewKind;
  /** The open request: its page when the reader may open it, null when they may not; undefined: none. */
  openRequest: { readonly href: string | null } | undefined;
  mayAsk: boolean;
  /** What asking does here, in words (after a denial: asking approvers to reconsider it). */
  askLabel?: string;
  /** In a table row: a small button whose name says which server it is for. */
  compact?: boolean;
}) {
  const [state, action] = useActionState(requestReviewAction, IDLE);
  const forServer = compact ? <span className="visually-hidden"> for {serverName}</span> : null;
  return (
    <span className="stack-sm">
      {state.status === 'error' ? (
        <ProblemCallout problem={state.problem} context="Review was not requested" />
      ) : null}
      {state.status === 'success' ? (
        <span className={styles.outcome} role="status">
          {state.message}
        </span>
      ) : null}
      {openRequest !== undefined ? (
        openRequest.href !== null ? (
          <Link href={openRequest.href}>Review the open request{forServer}</Link>
        ) : (
          <span className="muted">A request is open: an approver will review it.</span>
        )
      ) : mayAsk ? (
        <form action={action}>
          <input type="hidden" name="workspaceId" value={workspaceId} />
          <input type="hidden" name="serverName" value={serverName} />
          <input type="hidden" name="view" value={view} />
          <SubmitButton variant="secondary" size="small" pendingLabel="Asking…">
            {askLabel}
            {forServer}
          </SubmitButton>
        </form>
      ) : null}
    </span>
  );
}
