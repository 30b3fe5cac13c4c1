import Link from 'next/link';
import type { ApprovalRequestView } from '@/views/approval-views';
import type { ActorDirectory } from '../audit/audit-labels';
import { DateTime } from '../date-time';
import { LongValue } from '../long-value';
import { Badge, Callout } from '../feedback';
import overviewStyles from '../overview.module.css';
import { SourceLabel } from '../servers/server-parts';
import {
  causeLabel,
  personLabel,
  REQUEST_STATUS_LABELS,
  targetOfProjection,
  triggerLabel,
} from './approval-labels';
import styles from './approvals.module.css';
import { DecisionDialog } from './decision-dialog';
import { ProjectionDiff } from './projection-diff';
import { originInWords, type NameLookup } from './review-model';
import { ReviewedProjection } from './reviewed-projection';

/** Who a request is for: the workspace alone, or one person (per-user entries). */
export function RequestSubject({
  request,
  directory,
}: {
  request: ApprovalRequestView;
  directory: ActorDirectory;
}) {
  const principal = request.identity.principalUserId;
  return principal === null ? (
    <span>The workspace alone</span>
  ) : (
    <span>{personLabel(principal, directory)} only (per-user definition)</span>
  );
}

export function RequestAuthors({
  request,
  directory,
}: {
  request: ApprovalRequestView;
  directory: ActorDirectory;
}) {
  if (request.authorUserIds.length === 0)
    return <span className="muted">No person (a service or an import)</span>;
  return <span>{request.authorUserIds.map((id) => personLabel(id, directory)).join(', ')}</span>;
}

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
  const target = targetOfProjection(request.projection);
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
      <dl className={overviewStyles.definition}>
        <dt>Source</dt>
        <dd>
          <SourceLabel
            source={request.identity.source}
            name={originInWords(request.identity.source, names)}
          />
        </dd>
        <dt>For</dt>
        <dd>
          <RequestSubject request={request} directory={directory} />
        </dd>
        <dt>Changed by</dt>
        <dd>
          <RequestAuthors request={request} directory={directory} />
        </dd>
        {target !== null ? (
          <>
            <dt>{target.kind === 'stdio' ? 'Runs' : 'Connects to'}</dt>
            <dd>
              <code>{target.target}</code>
            </dd>
          </>
        ) : null}
        <dt>Definition</dt>
        <dd>
          <LongValue value={request.identity.definitionFingerprint} label="fingerprint" truncate />
        </dd>
      </dl>
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
