import type { Metadata } from 'next';
import Link from 'next/link';
import { revokeApprovalAction } from '@/server/actions/approval.actions';
import { getApprovalRequest, listApprovalRequests, listApprovals } from '@/server/approval-queries';
import { approvalsPageContext, uuidParam, type ApprovalsPageContext } from '@/server/approvals-page-context';
import type { Capabilities } from '@/server/capabilities';
import { pageAccess, redirectIfSessionEnded } from '@/server/current-session';
import { AccessFailure } from '@/ui/access-states';
import { buttonClassName } from '@/ui/button';
import {
  causeLabel,
  DECISION_LABELS,
  decisionStateOf,
  personLabel,
  REQUEST_STATUS_LABELS,
  triggerLabel,
} from '@/ui/approvals/approval-labels';
import styles from '@/ui/approvals/approvals.module.css';
import { ApprovalsTabs, approvalsTabOf, type ApprovalsTab } from '@/ui/approvals/approvals-tabs';
import { RequestCard } from '@/ui/approvals/request-card';
import { DecisionReasons } from '@/ui/approvals/decision-reasons';
import { ReasonField } from '@/ui/approvals/reason-field';
import { ConfirmAction } from '@/ui/confirm-action';
import { DataTable, type TableColumn } from '@/ui/data-table';
import { DateTime } from '@/ui/date-time';
import { Badge, Callout, EmptyState, ProblemCallout } from '@/ui/feedback';
import { SelectField } from '@/ui/form-fields';
import { PageHeader } from '@/ui/page-header';
import { Pager } from '@/ui/pager';
import { firstParam, readPageCursor, readPageSize, type PageCursor, type SearchParams } from '@/ui/paging';
import type { ApprovalRequestView } from '@/views/approval-views';

export const metadata: Metadata = { title: 'Approvals' };

// The approval workflow's home: the queue of open requests (newest first, each with what changed since the
// last approval and the decision buttons), the recorded decisions (with revoke for owners and admins), and
// the closed requests. Owners, admins and approvers only; members see approval state on the Servers page.

interface ListProps {
  readonly context: ApprovalsPageContext;
  readonly can: Capabilities;
  readonly userId: string;
  readonly workspaceId: string | undefined;
  readonly current: PageCursor;
  readonly pageSize: number;
}

function pagerKeep(tab: ApprovalsTab, workspaceId: string | undefined): Record<string, string | undefined> {
  return { show: tab === 'queue' ? undefined : tab, workspaceId };
}

// Next.js requires a page as the module's default export.
export default async function ApprovalsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const access = await pageAccess('readApprovals');
  if (!access.ok) return <AccessFailure access={access} />;
  const { can, session } = access;
  const params = await searchParams;
  const tab = approvalsTabOf(firstParam(params, 'show'));
  const workspaceId = uuidParam(firstParam(params, 'workspaceId'));
  const decidedId = uuidParam(firstParam(params, 'decided'));
  const [context, decided] = await Promise.all([
    approvalsPageContext(can),
    decidedId !== undefined ? getApprovalRequest(decidedId) : undefined,
  ]);
  const props: ListProps = {
    context,
    can,
    userId: session.user.id,
    workspaceId,
    current: readPageCursor(params),
    pageSize: readPageSize(params),
  };

  return (
    <div className="stack">
      <PageHeader
        title="Approvals"
        description="A server runs only when an approval holds for exactly what it is: its definition, source, repository and workspace generation. Changing any of them opens a new request here."
      />
      {decided?.ok ? <DecidedNotice request={decided.data} context={context} /> : null}
      <ApprovalsTabs current={tab} workspaceId={workspaceId} />
      {context.workspaces.length > 1 ? (
        <WorkspaceFilter tab={tab} workspaceId={workspaceId} context={context} />
      ) : null}
      {tab === 'queue' ? <QueueView {...props} /> : null}
      {tab === 'decisions' ? <DecisionsView {...props} /> : null}
      {tab === 'closed' ? <ClosedRequestsView {...props} /> : null}
    </div>
  );
}

/** After a decision (the action redirects here): what was decided, announced. */
async function DecidedNotice({
  request,
  context,
}: {
  request: ApprovalRequestView;
  context: ApprovalsPageContext;
}) {
  const approvals =
    request.approvalId === null
      ? undefined
      : await listApprovals({
          workspaceId: request.workspaceId,
          serverName: request.identity.serverName,
          limit: 100,
        });
  const approval = approvals?.ok
    ? approvals.data.items.find((item) => item.id === request.approvalId)
    : undefined;
  const verb = approval === undefined ? 'decided' : approval.decision;
  return (
    <Callout tone="success" title="Decision recorded" live>
      <p>
        {request.identity.serverName} in {context.workspaceName(request.workspaceId)} is {verb}.{' '}
        <Link href={`/approvals/${request.id}`}>View the request</Link>
      </p>
    </Callout>
  );
}

function WorkspaceFilter({
  tab,
  workspaceId,
  context,
}: {
  tab: ApprovalsTab;
  workspaceId: string | undefined;
  context: ApprovalsPageContext;
}) {
  return (
    <form method="get" action="/approvals" className={styles.filters} role="search" aria-label="Approvals">
      {tab !== 'queue' ? <input type="hidden" name="show" value={tab} /> : null}
      <SelectField
        id="approvals-workspace"
        name="workspaceId"
        label="Workspace"
        defaultValue={workspaceId ?? ''}
        options={[
          { value: '', label: 'All workspaces' },
          ...context.workspaces.map((workspace) => ({ value: workspace.id, label: workspace.name })),
        ]}
      />
      <button type="submit" className={buttonClassName('secondary')}>
        Show
      </button>
    </form>
  );
}

async function QueueView({ context, can, userId, workspaceId, current, pageSize }: ListProps) {
  const result = await listApprovalRequests({
    status: 'open',
    workspaceId,
    cursor: current.cursor,
    limit: pageSize,
  });
  if (!result.ok) {
    redirectIfSessionEnded(result.problem);
    return <ProblemCallout problem={result.problem} context="The queue could not be loaded" />;
  }
  const items = result.data.items;
  if (items.length === 0 && current.cursor === undefined) {
    return (
      <EmptyState title="Nothing waits for review">
        Requests appear here when a server’s definition is written or changes, when a workspace is trusted or
        starts a new generation, and when someone asks for review on the Servers page.
      </EmptyState>
    );
  }
  return (
    <section aria-label="Open requests" className="stack-sm">
      <p className="muted">
        {items.length} open {items.length === 1 ? 'request' : 'requests'} on this page, newest first.
        {can.decideApprovals ? ' Each decision covers exactly the definition shown.' : ''}
      </p>
      <ul className={styles.queue}>
        {items.map((request) => (
          <li key={request.id}>
            <RequestCard
              request={request}
              workspaceName={context.workspaceName(request.workspaceId)}
              directory={context.directory}
              names={context.names}
              userId={userId}
              canDecide={can.decideApprovals}
            />
          </li>
        ))}
      </ul>
      <Pager
        path="/approvals"
        keep={pagerKeep('queue', workspaceId)}
        current={current}
        pageSize={pageSize}
        nextCursor={result.data.nextCursor}
        label="Queue pages"
      />
    </section>
  );
}

async function DecisionsView({ context, can, workspaceId, current, pageSize }: ListProps) {
  const result = await listApprovals({ state: 'all', workspaceId, cursor: current.cursor, limit: pageSize });
  if (!result.ok) {
    redirectIfSessionEnded(result.problem);
    return <ProblemCallout problem={result.problem} context="Decisions could not be loaded" />;
  }
  if (result.data.items.length === 0 && current.cursor === undefined) {
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
    ...(can.revokeApprovals ? [{ id: 'actions', label: 'Actions', hideLabel: true }] : []),
  ];
  return (
    <DataTable
      caption="Decisions"
      filterLabel="Filter decisions"
      columns={columns}
      rows={result.data.items.map((approval) => {
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
            ...(can.revokeApprovals
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
          keep={pagerKeep('decisions', workspaceId)}
          current={current}
          pageSize={pageSize}
          nextCursor={result.data.nextCursor}
          label="Decision pages"
        />
      }
    />
  );
}

async function ClosedRequestsView({ context, workspaceId, current, pageSize }: ListProps) {
  const result = await listApprovalRequests({
    status: 'closed',
    workspaceId,
    cursor: current.cursor,
    limit: pageSize,
  });
  if (!result.ok) {
    redirectIfSessionEnded(result.problem);
    return <ProblemCallout problem={result.problem} context="Closed requests could not be loaded" />;
  }
  if (result.data.items.length === 0 && current.cursor === undefined) {
    return (
      <EmptyState title="No closed requests yet">
        A request closes when it is decided, when the server changes again before anyone decided (superseded
        by a newer request), or when what it was opened for no longer exists (withdrawn).
      </EmptyState>
    );
  }
  return (
    <DataTable
      caption="Closed requests"
      filterLabel="Filter closed requests"
      columns={[
        { id: 'server', label: 'Server', sortable: true },
        { id: 'workspace', label: 'Workspace', sortable: true },
        { id: 'status', label: 'Status', sortable: true },
        { id: 'trigger', label: 'Opened because', sortable: true },
        { id: 'changes', label: 'Changed fields', numeric: true, sortable: true },
        { id: 'opened', label: 'Opened', sortable: true },
        { id: 'closed', label: 'Closed', sortable: true },
        { id: 'by', label: 'Closed by' },
      ]}
      rows={result.data.items.map((request) => {
        const status = REQUEST_STATUS_LABELS[request.status];
        const workspace = context.workspaceName(request.workspaceId);
        return {
          id: request.id,
          cells: [
            <Link key="s" href={`/approvals/${request.id}`}>
              {request.identity.serverName}
            </Link>,
            workspace,
            <Badge key="st" tone={status.tone}>
              {status.label}
            </Badge>,
            causeLabel(request.cause) ?? triggerLabel(request.trigger),
            request.changes.length,
            <DateTime key="o" value={request.openedAt} />,
            <DateTime key="c" value={request.closedAt} />,
            request.closedBy !== null ? (
              personLabel(request.closedBy, context.directory)
            ) : (
              <span key="b" className="muted">
                {request.status === 'superseded' ? 'A newer request' : '—'}
              </span>
            ),
          ],
          sort: [
            request.identity.serverName,
            workspace,
            status.label,
            causeLabel(request.cause) ?? triggerLabel(request.trigger),
            request.changes.length,
            request.openedAt,
            request.closedAt,
            null,
          ],
          search: `${request.identity.serverName} ${workspace} ${status.label} ${triggerLabel(request.trigger)}`,
        };
      })}
      footer={
        <Pager
          path="/approvals"
          keep={pagerKeep('closed', workspaceId)}
          current={current}
          pageSize={pageSize}
          nextCursor={result.data.nextCursor}
          label="Closed request pages"
        />
      }
    />
  );
}
