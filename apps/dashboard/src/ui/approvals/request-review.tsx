import type { ApprovalsPageContext } from '@/server/approvals-page-context';
import { DateTime } from '@/ui/date-time';
import { Panel } from '@/ui/feedback';
import type { ApprovalRequestView, ApprovalView } from '@/views/approval-views';
import { personLabel } from './approval-labels';
import { ProjectionDiff } from './projection-diff';
import { ReviewedProjection } from './reviewed-projection';

// What a reviewer reads before deciding: what changed since the last approval, then the definition as reviewed.
export function RequestReview({
  request,
  previous,
  context,
  workspaceName,
  cause,
}: {
  request: ApprovalRequestView;
  /** The approval this request would replace, when it is still listed. */
  previous: ApprovalView | undefined;
  context: ApprovalsPageContext;
  workspaceName: string;
  cause: string | null;
}) {
  const { identity } = request;
  return (
    <>
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
    </>
  );
}
