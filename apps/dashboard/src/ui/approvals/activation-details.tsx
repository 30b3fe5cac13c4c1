import { DateTime } from '@/ui/date-time';
import { Badge } from '@/ui/feedback';
import overviewStyles from '@/ui/overview.module.css';
import type { ActivationView } from '@/views/approval-views';
import type { EffectiveEntryView } from '@/views/definition-views';
import { agreement, openRequestOf, type ReviewTarget } from './activation-agreement';
import { ActivationBadge } from './activation-parts';
import {
  activationReasonLabel,
  askForReviewLabel,
  describeStaleFields,
  mayAskForReview,
} from './approval-labels';
import styles from './approvals.module.css';
import { ReviewControl } from './review-control';

function noReviewNote(activation: ActivationView): string {
  switch (activation.state) {
    case 'approved':
      return 'Nothing to review: it is approved.';
    case 'untrusted':
      return 'Nothing to review until an admin trusts this workspace.';
    default:
      return 'Nothing exact to review yet.';
  }
}

/** The Approval panel of a server's page: state, every reason, expiry, what changed, and its review. */
export function ActivationDetails({ entry, target }: { entry: EffectiveEntryView; target: ReviewTarget }) {
  const { activation } = entry;
  const { activation: shown, lines } = agreement(entry);
  return (
    <dl
      className={overviewStyles.definition}
      data-activation={activation.state}
      data-admissible={entry.admission === null ? undefined : String(entry.admission.admissible)}
    >
      <dt>State</dt>
      <dd>
        <span className="row">
          {entry.status === 'disabled' ? <Badge tone="neutral">Disabled</Badge> : null}
          <ActivationBadge activation={shown} />
          <code className="muted">{shown.state}</code>
        </span>
        {lines.map((text) => (
          <p key={text} className={styles.agreement}>
            {text}
          </p>
        ))}
      </dd>
      <dt>Why</dt>
      <dd>
        {activation.reasons.length === 0 ? (
          <span className="muted">No reason given</span>
        ) : (
          <ul aria-label="Reasons">
            {activation.reasons.map((reason) => (
              <li key={reason}>
                {activationReasonLabel(reason)} <code className="muted">{reason}</code>
              </li>
            ))}
          </ul>
        )}
      </dd>
      {activation.state === 'stale' ? (
        <>
          <dt>Changed since approval</dt>
          <dd>
            {describeStaleFields(activation.staleBecause)}{' '}
            {activation.staleBecause.map((field) => (
              <code key={field} className="muted">
                {field}{' '}
              </code>
            ))}
          </dd>
        </>
      ) : null}
      {activation.state === 'approved' ? (
        <>
          <dt>Expires</dt>
          <dd>
            <DateTime value={activation.expiresAt} fallback="Not before it is revoked or changes" />
          </dd>
        </>
      ) : null}
      <dt>Review</dt>
      <dd>
        <ReviewControl
          workspaceId={target.workspaceId}
          serverName={entry.name}
          view={target.view}
          openRequest={openRequestOf(activation, target.canReadApprovals)}
          mayAsk={target.canRequestReview && mayAskForReview(activation, entry.status === 'resolved')}
          askLabel={askForReviewLabel(activation)}
        />
        {activation.openRequestId === null &&
        !(target.canRequestReview && mayAskForReview(activation, entry.status === 'resolved')) ? (
          <span className="muted">{noReviewNote(activation)}</span>
        ) : null}
      </dd>
    </dl>
  );
}
