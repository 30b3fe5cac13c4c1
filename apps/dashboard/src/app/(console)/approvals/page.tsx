import type { Metadata } from 'next';
import { getApprovalRequest, listApprovalRequests, listApprovals } from '@/server/approval-queries';
import { approvalsPageContext, uuidParam } from '@/server/approvals-page-context';
import { pageAccess, redirectIfSessionEnded } from '@/server/current-session';
import { AccessFailure } from '@/ui/access-states';
import { ApprovalsQueue } from '@/ui/approvals/approvals-queue';
import { ApprovalsTabs, approvalsTabOf, type ApprovalsTab } from '@/ui/approvals/approvals-tabs';
import { ApprovalsWorkspaceFilter } from '@/ui/approvals/approvals-workspace-filter';
import { ClosedRequestsTable } from '@/ui/approvals/closed-requests-table';
import { DecidedNotice } from '@/ui/approvals/decided-notice';
import { DecisionsTable } from '@/ui/approvals/decisions-table';
import { ProblemCallout } from '@/ui/feedback';
import { PageHeader } from '@/ui/page-header';
import { firstParam, readPageCursor, readPageSize, type SearchParams } from '@/ui/paging';
import type { ApprovalRequestView } from '@/views/approval-views';

export const metadata: Metadata = { title: 'Approvals' };

// The approval workflow's home: the queue of open requests (newest first, each with what changed since the
// last approval and the decision buttons), the recorded decisions (with revoke for owners and admins), and
// the closed requests. Owners, admins and approvers only; members see approval state on the Servers page.
// This page reads and decides access; src/ui/approvals renders.

const FAILED: Record<ApprovalsTab, string> = {
  queue: 'The queue could not be loaded',
  decisions: 'Decisions could not be loaded',
  closed: 'Closed requests could not be loaded',
};

// Next.js requires a page as the module's default export.
export default async function ApprovalsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const access = await pageAccess('readApprovals');
  if (!access.ok) return <AccessFailure access={access} />;
  const { can, session } = access;
  const params = await searchParams;
  const tab = approvalsTabOf(firstParam(params, 'show'));
  const workspaceId = uuidParam(firstParam(params, 'workspaceId'));
  const decidedId = uuidParam(firstParam(params, 'decided'));
  const current = readPageCursor(params);
  const pageSize = readPageSize(params);
  const [context, decided, list] = await Promise.all([
    approvalsPageContext(can),
    decidedId !== undefined ? getApprovalRequest(decidedId) : undefined,
    readTab(tab, { workspaceId, cursor: current.cursor, limit: pageSize }),
  ]);
  if (!list.result.ok) redirectIfSessionEnded(list.result.problem);
  const shown = { context, workspaceId, current, pageSize };

  return (
    <div className="stack">
      <PageHeader
        title="Approvals"
        description="A server runs only when an approval holds for exactly what it is: its definition, source, repository and workspace generation. Changing any of them opens a new request here."
      />
      {decided?.ok ? (
        <DecidedNotice
          request={decided.data}
          workspaceName={context.workspaceName(decided.data.workspaceId)}
          verb={await decisionVerb(decided.data)}
        />
      ) : null}
      <ApprovalsTabs current={tab} workspaceId={workspaceId} />
      {context.workspaces.length > 1 ? (
        <ApprovalsWorkspaceFilter tab={tab} workspaceId={workspaceId} context={context} />
      ) : null}
      {!list.result.ok ? <ProblemCallout problem={list.result.problem} context={FAILED[tab]} /> : null}
      {list.tab === 'queue' && list.result.ok ? (
        <ApprovalsQueue
          {...shown}
          {...list.result.data}
          canDecide={can.decideApprovals}
          userId={session.user.id}
        />
      ) : null}
      {list.tab === 'decisions' && list.result.ok ? (
        <DecisionsTable {...shown} {...list.result.data} canRevoke={can.revokeApprovals} />
      ) : null}
      {list.tab === 'closed' && list.result.ok ? (
        <ClosedRequestsTable {...shown} {...list.result.data} />
      ) : null}
    </div>
  );
}

interface ListPage {
  readonly workspaceId: string | undefined;
  readonly cursor: string | undefined;
  readonly limit: number;
}

/** The one list the chosen tab shows. */
async function readTab(tab: ApprovalsTab, page: ListPage) {
  switch (tab) {
    case 'queue':
      return { tab, result: await listApprovalRequests({ status: 'open', ...page }) } as const;
    case 'closed':
      return { tab, result: await listApprovalRequests({ status: 'closed', ...page }) } as const;
    case 'decisions':
      return { tab, result: await listApprovals({ state: 'all', ...page }) } as const;
  }
}

/** What the decided request's approval says (`approved`, `denied`), or `decided` when it cannot be read. */
async function decisionVerb(request: ApprovalRequestView): Promise<string> {
  if (request.approvalId === null) return 'decided';
  const approvals = await listApprovals({
    workspaceId: request.workspaceId,
    serverName: request.identity.serverName,
    limit: 100,
  });
  const approval = approvals.ok
    ? approvals.data.items.find((item) => item.id === request.approvalId)
    : undefined;
  return approval === undefined ? 'decided' : approval.decision;
}
