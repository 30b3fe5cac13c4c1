import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { revokeApprovalAction } from '@/server/actions/approval.actions';
import { getApprovalRequest, listApprovals } from '@/server/approval-queries';
import { approvalsPageContext, uuidParam } from '@/server/approvals-page-context';
import { pageAccess, redirectIfSessionEnded } from '@/server/current-session';
import { AccessFailure, PageProblem } from '@/ui/access-states';
import {
  causeLabel,
  CLOSE_REASON_WORDS,
  DECISION_LABELS,
  decisionStateOf,
  notAdmissibleLine,
  personLabel,
  REQUEST_STATUS_LABELS,
  triggerLabel,
} from '@/ui/approvals/approval-labels';
import { DecisionReasons } from '@/ui/approvals/decision-reasons';
import { ReasonField } from '@/ui/approvals/reason-field';
import { getEffectiveDefinitions } from '@/server/definition-queries';
import { DecisionDialog } from '@/ui/approvals/decision-dialog';
import { ProjectionDiff } from '@/ui/approvals/projection-diff';
import { RequestAuthors, RequestSubject } from '@/ui/approvals/request-card';
import { originInWords } from '@/ui/approvals/review-model';
import { ReviewedProjection } from '@/ui/approvals/reviewed-projection';
import { LongValue } from '@/ui/long-value';
import { ConfirmAction } from '@/ui/confirm-action';
import { DateTime } from '@/ui/date-time';
import { Badge, Callout, Panel } from '@/ui/feedback';
import overviewStyles from '@/ui/overview.module.css';
import { PageHeader } from '@/ui/page-header';
import { firstParam, type SearchParams } from '@/ui/paging';
import { SourceLabel } from '@/ui/servers/server-parts';
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
              <>
                <DecisionDialog
                  decision="approve"
                  requestId={request.id}
                  serverName={identity.serverName}
                  workspaceName={workspaceName}
                  fingerprint={identity.definitionFingerprint}
                  identityKey={identity.key}
                  returnTo="request"
                />
                <DecisionDialog
                  decision="deny"
                  requestId={request.id}
                  serverName={identity.serverName}
                  workspaceName={workspaceName}
                  fingerprint={identity.definitionFingerprint}
                  identityKey={identity.key}
                  returnTo="request"
                />
              </>
            ) : null}
          </>
        }
      />
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
      {open && request.fourEyes && request.authorUserIds.includes(session.user.id) ? (
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

      <Panel
        id="request-changes"
        title="What changed"
        description={
          previous !== undefined ? (
            <>
              Since the approval by {personLabel(previous.decidedBy, context.directory)} on{' '}
              <DateTime value={previous.decidedAt} />.
            </>
          ) : request.previousApprovalId !== null ? (
            'Since the last approval of this server.'
          ) : undefined
        }
      >
        <ProjectionDiff
          id="request-diff"
          changes={request.changes}
          firstReview={request.previousApprovalId === null}
          cause={cause}
        />
      </Panel>

      <Panel
        id="request-projection"
        title="Reviewed definition"
        description="What a decision covers, read as what runs: secrets masked, env and header values never shown. Marks name what changed since the last approval."
      >
        <ReviewedProjection
          projection={request.projection}
          changes={request.changes}
          idPrefix="request"
          place={{
            workspaceName,
            generation: identity.workspaceGeneration,
            repository: identity.repositoryIdentity,
          }}
        />
      </Panel>

      <Panel
        id="request-identity"
        title="Identity"
        description="A decision holds only while every field matches."
      >
        <dl className={overviewStyles.definition}>
          <dt>Source</dt>
          <dd>
            <SourceLabel source={identity.source} name={originInWords(identity.source, context.names)} />
          </dd>
          <dt>Workspace</dt>
          <dd>
            <Link href={`/workspaces/${request.workspaceId}`}>{workspaceName}</Link>
          </dd>
          <dt>For</dt>
          <dd>
            <RequestSubject request={request} directory={context.directory} />
          </dd>
          <dt>Changed by</dt>
          <dd>
            <RequestAuthors request={request} directory={context.directory} />
          </dd>
          <dt>Fingerprint</dt>
          <dd>
            <LongValue value={identity.definitionFingerprint} label="fingerprint" />
          </dd>
          <dt>Security identity</dt>
          <dd>
            <LongValue value={identity.securityIdentity} label="security identity" />
          </dd>
          <dt>Repository</dt>
          <dd>
            {identity.repositoryIdentity !== null ? (
              <code>{identity.repositoryIdentity}</code>
            ) : (
              <span className="muted">Not bound (managed or user source)</span>
            )}
          </dd>
          <dt>Workspace generation</dt>
          <dd>
            {identity.workspaceGeneration !== null ? (
              identity.workspaceGeneration
            ) : (
              <span className="muted">Not bound</span>
            )}
          </dd>
          <dt>Identity key</dt>
          <dd>
            <LongValue value={identity.key} label="identity key" muted />
          </dd>
        </dl>
      </Panel>

      {request.status === 'decided' ? (
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
                  {can.revokeApprovals && decision.revokedAt === null ? (
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
