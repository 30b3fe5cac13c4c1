import Link from 'next/link';
import type { ApprovalRequestView } from '@/views/approval-views';
import type { ActorDirectory } from '@/ui/audit/audit-labels';
import { DateTime } from '@/ui/date-time';
import { Badge, Callout } from '@/ui/feedback';
import { causeLabel, REQUEST_STATUS_LABELS, triggerLabel } from './approval-labels';
import styles from './approvals.module.css';
import { DecisionDialog } from './decision-dialog';
import { ProjectionDiff } from './projection-diff';
import { RequestFacts } from './request-facts';
import type { NameLookup } from './review-model';
import { ReviewedProjection } from './reviewed-projection';

/**
 * One request of the queue: which server, where, why it is here, who changed it, the field-level diff since
 * the last approval, the full reviewed definition on expand, and the decision buttons.
 */
export function RequestCard({
  request,
  workspaceName,
  directory,
  names,
  userId,
  canDecide,
}: {
  request: ApprovalRequestView;
  workspaceName: string;
  directory: ActorDirectory;
  names: NameLookup;
  /** The signed-in person: four-eyes refuses them if they authored the change. */
  userId: string;
  canDecide: boolean;
}) {
  const titleId = `request-${request.id}-title`;
  const status = REQUEST_STATUS_LABELS[request.status];
  const authoredByYou = request.authorUserIds.includes(userId);
  return (
    <article
      className={styles.card}
      aria-labelledby={titleId}
      data-request-id={request.id}
      data-status={request.status}
    >
      <header className={styles.cardHeader}>
        <div className={styles.cardTitle}>
          <h2 id={titleId}>
            <Link href={`/approvals/${request.id}`}>{request.identity.serverName}</Link>
          </h2>
          <p className={styles.cardMeta}>
            In <Link href={`/servers/${request.workspaceId}`}>{workspaceName}</Link> ·{' '}
            {triggerLabel(request.trigger)} · opened <DateTime value={request.openedAt} />
          </p>
        </div>
        <div className="row">
          <Badge tone={status.tone}>{status.label}</Badge>
          {canDecide && request.status === 'open' ? (
            <>
              <DecisionDialog
                decision="approve"
                requestId={request.id}
                serverName={request.identity.serverName}
                workspaceName={workspaceName}
                fingerprint={request.identity.definitionFingerprint}
                identityKey={request.identity.key}
                returnTo="queue"
              />
              <DecisionDialog
                decision="deny"
                requestId={request.id}
                serverName={request.identity.serverName}
                workspaceName={workspaceName}
                fingerprint={request.identity.definitionFingerprint}
                identityKey={request.identity.key}
                returnTo="queue"
              />
            </>
          ) : null}
        </div>
      </header>
      <RequestFacts request={request} directory={directory} names={names} />
      {request.fourEyes && authoredByYou && request.status === 'open' ? (
        <Callout tone="info">
          <p>You made this change. With four-eyes on, someone else must approve it.</p>
        </Callout>
      ) : null}
      <section aria-labelledby={`${titleId}-diff`}>
        <h3 id={`${titleId}-diff`} className={styles.sectionTitle}>
          What changed
        </h3>
        <ProjectionDiff
          id={`request-${request.id}-diff`}
          changes={request.changes}
          firstReview={request.previousApprovalId === null}
          cause={causeLabel(request.cause)}
        />
      </section>
      <details className={styles.projection} open>
        <summary>Reviewed definition</summary>
        <ReviewedProjection
          projection={request.projection}
          changes={request.changes}
          idPrefix={`request-${request.id}`}
          place={{
            workspaceName,
            generation: request.identity.workspaceGeneration,
            repository: request.identity.repositoryIdentity,
          }}
        />
      </details>
    </article>
  );
}
