import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getApprovalRequest, listApprovals } from '@/server/approval-queries';
import { approvalsPageContext, uuidParam } from '@/server/approvals-page-context';
import { pageAccess, redirectIfSessionEnded } from '@/server/current-session';
import { getEffectiveDefinitions } from '@/server/definition-queries';
import { AccessFailure, PageProblem } from '@/ui/access-states';
import { causeLabel, REQUEST_STATUS_LABELS, triggerLabel } from '@/ui/approvals/approval-labels';
import { RequestDecision } from '@/ui/approvals/request-decision';
import { RequestDecisionButtons } from '@/ui/approvals/request-decision-buttons';
import { RequestIdentity } from '@/ui/approvals/request-identity';
import { RequestNotices } from '@/ui/approvals/request-notices';
import { RequestReview } from '@/ui/approvals/request-review';
import { DateTime } from '@/ui/date-time';
import { Badge } from '@/ui/feedback';
import { PageHeader } from '@/ui/page-header';
import { firstParam, type SearchParams } from '@/ui/paging';
import type { ApprovalView } from '@/views/approval-views';

export const metadata: Metadata = { title: 'Approval request' };

// One request in full: what changed since the last approval, the definition as reviewed, every field of the
// identity a decision binds to, and the decision (the buttons while open; who decided, and revoke, after).

// Next.js requires a page as the module's default export.
export default async function ApprovalRequestPage({
  params,
  searchParams,
}: {
  params: Promise<{ requestId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const access = await pageAccess('readApprovals');
  if (!access.ok) return <AccessFailure access={access} />;
  const { can, session } = access;
  const requestId = uuidParam((await params).requestId);
  if (requestId === undefined) notFound();
  const [result, context] = await Promise.all([getApprovalRequest(requestId), approvalsPageContext(can)]);
  if (!result.ok) {
    redirectIfSessionEnded(result.problem);
    if (result.problem.status === 404) notFound();
    return <PageProblem problem={result.problem} title="This request could not be loaded" />;
  }
  const request = result.data;
  const { identity } = request;
  const workspaceName = context.workspaceName(request.workspaceId);
  const status = REQUEST_STATUS_LABELS[request.status];
  const justDecided = firstParam(await searchParams, 'decided') === '1';
  const decisions =
    request.approvalId !== null || request.previousApprovalId !== null
      ? await listApprovals({ workspaceId: request.workspaceId, serverName: identity.serverName, limit: 100 })
      : undefined;
  const find = (id: string | null): ApprovalView | undefined =>
    id === null || !decisions?.ok ? undefined : decisions.data.items.find((item) => item.id === id);
  const decision = find(request.approvalId);
  const previous = find(request.previousApprovalId);
  const open = request.status === 'open';
  // An approval in force that no pool may ever run says so here too, from the API's own judgement.
  const admission =
    decision?.decision === 'approved' && decision.revokedAt === null && identity.principalUserId === null
      ? await admissionOf(request.workspaceId, identity.serverName, decision.id)
      : null;
  const cause = causeLabel(request.cause);

  return (
    <div className="stack">
      <PageHeader
        breadcrumb={<Link href="/approvals">Approvals</Link>}
        title={identity.serverName}
        description={
          <>
            In <Link href={`/servers/${request.workspaceId}`}>{workspaceName}</Link> ·{' '}
            {cause ?? triggerLabel(request.trigger)} · opened <DateTime value={request.openedAt} />
          </>
        }
        actions={
          <>
            <Badge tone={status.tone}>{status.label}</Badge>
            {open && can.decideApprovals ? (
              <RequestDecisionButtons request={request} workspaceName={workspaceName} />
            ) : null}
          </>
        }
      />
      <RequestNotices
        request={request}
        context={context}
        workspaceName={workspaceName}
        justDecided={justDecided}
        decision={decision}
        admission={admission}
        userId={session.user.id}
      />

      <RequestReview
        request={request}
        previous={previous}
        context={context}
        workspaceName={workspaceName}
        cause={cause}
      />

      <RequestIdentity request={request} context={context} workspaceName={workspaceName} />

      {request.status === 'decided' ? (
        <RequestDecision
          request={request}
          context={context}
          workspaceName={workspaceName}
          decision={decision}
          canRevoke={can.revokeApprovals}
        />
      ) : null}
    </div>
  );
}

/** The API's admissibility of the server as the workspace resolves it, while this decision is what holds. */
async function admissionOf(
  workspaceId: string,
  serverName: string,
  approvalId: string,
): Promise<{ admissible: boolean; reasons: readonly string[] } | null> {
  const view = await getEffectiveDefinitions(workspaceId, 'workspace');
  if (!view.ok) return null;
  const entry = view.data.entries.find((candidate) => candidate.name === serverName);
  if (entry === undefined || entry.activation.approvalId !== approvalId) return null;
  return entry.admission;
}
