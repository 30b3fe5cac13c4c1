import { revokeApprovalAction } from '@/server/actions/approval.actions';
import type { ApprovalsPageContext } from '@/server/approvals-page-context';
import { ConfirmAction } from '@/ui/confirm-action';
import { DateTime } from '@/ui/date-time';
import { Badge, Panel } from '@/ui/feedback';
import overviewStyles from '@/ui/overview.module.css';
import type { ApprovalRequestView, ApprovalView } from '@/views/approval-views';
import { DECISION_LABELS, decisionStateOf, personLabel } from './approval-labels';
import { DecisionReasons } from './decision-reasons';
import { ReasonField } from './reason-field';

// A decided request's decision: what, by whom, why, until when, and revoke for those who may.
export function RequestDecision({
  request,
  context,
  workspaceName,
  decision,
  canRevoke,
}: {
  request: ApprovalRequestView;
  context: ApprovalsPageContext;
  workspaceName: string;
  decision: ApprovalView | undefined;
  canRevoke: boolean;
}) {
  const { identity } = request;
  return (
    <Panel id="request-decision" title="Decision">
      {decision === undefined ? (
        <p className="muted">
          Decided <DateTime value={request.closedAt} />
          {request.closedBy !== null ? ` by ${personLabel(request.closedBy, context.directory)}` : ''}.
        </p>
      ) : (
        <dl className={overviewStyles.definition}>
          <dt>Decision</dt>
          <dd>
            <Badge tone={DECISION_LABELS[decision.decision].tone}>
              {DECISION_LABELS[decision.decision].label}
            </Badge>
          </dd>
          <dt>State</dt>
          <dd>
            <span className="row">
              <Badge tone={decisionStateOf(decision, new Date()).tone}>
                {decisionStateOf(decision, new Date()).label}
              </Badge>
              {canRevoke && decision.revokedAt === null ? (
                <ConfirmAction
                  trigger="Revoke"
                  triggerVariant="dangerOutline"
                  title={`Revoke the ${decision.decision === 'approved' ? 'approval' : 'denial'} of ${identity.serverName}?`}
                  description={
                    <p>
                      From now on it no longer holds for {identity.serverName} in {workspaceName}
                      {decision.decision === 'approved'
                        ? ': the server is refused until someone approves it again, and leases based on it end.'
                        : ': the server waits for a new decision.'}
                    </p>
                  }
                  confirmLabel="Revoke"
                  confirmVariant="danger"
                  action={revokeApprovalAction}
                  fields={{ approvalId: decision.id }}
                >
                  <ReasonField id={`revoke-reason-${decision.id}`} required verb="revoke it" />
                </ConfirmAction>
              ) : null}
            </span>
          </dd>
          <dt>Decided by</dt>
          <dd>{personLabel(decision.decidedBy, context.directory)}</dd>
          <dt>Reason</dt>
          <dd>
            <DecisionReasons approval={decision} />
          </dd>
          <dt>Decided</dt>
          <dd>
            <DateTime value={decision.decidedAt} />
          </dd>
          <dt>Expires</dt>
          <dd>
            <DateTime value={decision.expiresAt} fallback="Never (until revoked or changed)" />
          </dd>
          {decision.revokedAt !== null ? (
            <>
              <dt>Revoked</dt>
              <dd>
                <DateTime value={decision.revokedAt} />
                {decision.revokedBy !== null
                  ? ` by ${personLabel(decision.revokedBy, context.directory)}`
                  : ''}
              </dd>
            </>
          ) : null}
        </dl>
      )}
    </Panel>
  );
}
