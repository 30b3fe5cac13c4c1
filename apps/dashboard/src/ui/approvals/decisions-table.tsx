import Link from 'next/link';
import { revokeApprovalAction } from '@/server/actions/approval.actions';
import { ConfirmAction } from '@/ui/confirm-action';
import { DataTable, type TableColumn } from '@/ui/data-table';
import { DateTime } from '@/ui/date-time';
import { Badge, EmptyState } from '@/ui/feedback';
import { Pager } from '@/ui/pager';
import type { ApprovalView } from '@/views/approval-views';
import { DECISION_LABELS, decisionStateOf, personLabel } from './approval-labels';
import { approvalsPagerKeep, type ApprovalsListPage } from './approvals-list-page';
import { DecisionReasons } from './decision-reasons';
import { ReasonField } from './reason-field';

// The Approvals page's "Decisions" tab: every recorded approval and denial, with revoke for owners and admins.
export function DecisionsTable({
  items,
  nextCursor,
  context,
  canRevoke,
  workspaceId,
  current,
  pageSize,
}: ApprovalsListPage<ApprovalView> & { readonly canRevoke: boolean }) {
  if (items.length === 0 && current.cursor === undefined) {
    return (
      <EmptyState title="No decisions yet">
        Approvals and denials appear here once a request is decided.
      </EmptyState>
    );
  }
  const now = new Date();
  const columns: TableColumn[] = [
    { id: 'server', label: 'Server', sortable: true },
    { id: 'workspace', label: 'Workspace', sortable: true },
    { id: 'decision', label: 'Decision', sortable: true },
    { id: 'state', label: 'State', sortable: true },
    { id: 'by', label: 'Decided by', sortable: true },
    { id: 'at', label: 'Decided', sortable: true },
    { id: 'expires', label: 'Expires', sortable: true },
    { id: 'reason', label: 'Reason' },
    ...(canRevoke ? [{ id: 'actions', label: 'Actions', hideLabel: true }] : []),
  ];
  return (
    <DataTable
      caption="Decisions"
      filterLabel="Filter decisions"
      columns={columns}
      rows={items.map((approval) => {
        const state = decisionStateOf(approval, now);
        const workspace = context.workspaceName(approval.workspaceId);
        const by = personLabel(approval.decidedBy, context.directory);
        const server = approval.identity.serverName;
        return {
          id: approval.id,
          cells: [
            approval.requestId !== null ? (
              <Link key="s" href={`/approvals/${approval.requestId}`}>
                {server}
              </Link>
            ) : (
              server
            ),
            workspace,
            <Badge key="d" tone={DECISION_LABELS[approval.decision].tone}>
              {DECISION_LABELS[approval.decision].label}
            </Badge>,
            <span key="st" className="cell-stack">
              <Badge tone={state.tone}>{state.label}</Badge>
              {approval.revokedAt !== null ? (
                <span className="muted">
                  by {personLabel(approval.revokedBy ?? '', context.directory)}{' '}
                  <DateTime value={approval.revokedAt} />
                </span>
              ) : null}
            </span>,
            by,
            <DateTime key="at" value={approval.decidedAt} />,
            <DateTime key="e" value={approval.expiresAt} fallback="Never" />,
            <DecisionReasons key="why" approval={approval} />,
            ...(canRevoke
              ? [
                  approval.revokedAt === null ? (
                    <ConfirmAction
                      key="r"
                      trigger="Revoke"
                      triggerVariant="dangerOutline"
                      title={`Revoke the ${approval.decision === 'approved' ? 'approval' : 'denial'} of ${server}?`}
                      description={
                        <p>
                          From now on it no longer holds for {server} in {workspace}
                          {approval.decision === 'approved'
                            ? ': the server is refused until someone approves it again, and leases based on it end.'
                            : ': the server waits for a new decision.'}
                        </p>
                      }
                      confirmLabel="Revoke"
                      confirmVariant="danger"
                      action={revokeApprovalAction}
                      fields={{ approvalId: approval.id }}
                    >
                      <ReasonField id={`revoke-reason-${approval.id}`} required verb="revoke it" />
                    </ConfirmAction>
                  ) : (
                    <span key="r" className="muted">
                      Revoked
                    </span>
                  ),
                ]
              : []),
          ],
          sort: [
            server,
            workspace,
            approval.decision,
            state.label,
            by,
            approval.decidedAt,
            approval.expiresAt,
            approval.reason,
            null,
          ],
          search: `${server} ${workspace} ${approval.decision} ${state.label} ${by} ${approval.reason ?? ''} ${approval.revokeReason ?? ''}`,
        };
      })}
      footer={
        <Pager
          path="/approvals"
          keep={approvalsPagerKeep('decisions', workspaceId)}
          current={current}
          pageSize={pageSize}
          nextCursor={nextCursor}
          label="Decision pages"
        />
      }
    />
  );
}
