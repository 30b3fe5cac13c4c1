import Link from 'next/link';
import type { ApprovalsPageContext } from '@/server/approvals-page-context';
import { DateTime } from '@/ui/date-time';
import { Callout } from '@/ui/feedback';
import type { ApprovalRequestView, ApprovalView } from '@/views/approval-views';
import { CLOSE_REASON_WORDS, notAdmissibleLine, personLabel } from './approval-labels';

// What the request page says above the request: a decision just made, an approval no pool may run, the
// reader's own change under four-eyes, a superseded or withdrawn request.
export function RequestNotices({
  request,
  context,
  workspaceName,
  justDecided,
  decision,
  admission,
  userId,
}: {
  request: ApprovalRequestView;
  context: ApprovalsPageContext;
  workspaceName: string;
  justDecided: boolean;
  decision: ApprovalView | undefined;
  admission: { readonly admissible: boolean; readonly reasons: readonly string[] } | null;
  userId: string;
}) {
  const { identity } = request;
  const open = request.status === 'open';
  return (
    <>
      {justDecided && decision !== undefined ? (
        <Callout tone="success" title="Decision recorded" live>
          <p>
            {identity.serverName} in {workspaceName} is {decision.decision}.
          </p>
        </Callout>
      ) : null}
      {admission !== null && !admission.admissible ? (
        <Callout tone="warning" title="Approved but not admissible">
          <p>{notAdmissibleLine(admission.reasons)}.</p>
        </Callout>
      ) : null}
      {open && request.fourEyes && request.authorUserIds.includes(userId) ? (
        <Callout tone="info">
          <p>You made this change. With four-eyes on, someone else must approve it.</p>
        </Callout>
      ) : null}
      {request.status === 'superseded' ? (
        <Callout tone="info" title="Superseded">
          <p>
            {CLOSE_REASON_WORDS.superseded} Find it in the{' '}
            <Link href={`/approvals?workspaceId=${request.workspaceId}`}>queue</Link>.
          </p>
        </Callout>
      ) : null}
      {request.status === 'withdrawn' ? (
        <Callout tone="info" title="Withdrawn">
          <p>
            {CLOSE_REASON_WORDS.identity_gone} Closed <DateTime value={request.closedAt} />
            {request.closedBy !== null
              ? ` after a change by ${personLabel(request.closedBy, context.directory)}`
              : ''}
            .
          </p>
        </Callout>
      ) : null}
    </>
  );
}
