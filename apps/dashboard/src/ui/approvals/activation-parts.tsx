import type { ActivationView } from '@/views/approval-views';
import type { EffectiveEntryView } from '@/views/definition-views';
import { Badge } from '@/ui/feedback';
import { agreement, openRequestOf, type ReviewTarget } from './activation-agreement';
import {
  ACTIVATION_STATE_LABELS,
  activationReasonLabel,
  askForReviewLabel,
  describeStaleFields,
  mayAskForReview,
} from './approval-labels';
import styles from './approvals.module.css';
import { ReviewControl } from './review-control';

// A server's approval state on the Servers pages (server components): a badge, the reasons in words, what
// changed for a stale one, and the way to its review.

export function ActivationBadge({ activation }: { activation: ActivationView }) {
  const { label, tone } = ACTIVATION_STATE_LABELS[activation.state];
  return <Badge tone={tone}>{label}</Badge>;
}

/** The one line under the badge: for stale, what changed; else the first reason that is not "approved". */
function headline(activation: ActivationView): string {
  if (activation.state === 'stale')
    return `Changed since approval: ${describeStaleFields(activation.staleBecause)}`;
  const reason = activation.reasons[0];
  return reason === undefined ? '' : activationReasonLabel(reason);
}

/** The Approval column of the servers table. */
export function ActivationCell({ entry, target }: { entry: EffectiveEntryView; target: ReviewTarget }) {
  const { activation: shown, lines } = agreement(entry);
  const { activation } = entry;
  const line = entry.status === 'disabled' ? '' : headline(activation);
  return (
    <span
      className={`cell-stack ${styles.activationCell}`}
      data-activation={activation.state}
      data-admissible={entry.admission === null ? undefined : String(entry.admission.admissible)}
    >
      {/* Its own line, at its own width (a flex column would stretch the badge). */}
      <span>
        <ActivationBadge activation={shown} />
      </span>
      {lines.map((text) => (
        <span key={text} className={styles.agreement}>
          {text}
        </span>
      ))}
      {line ? <span>{line}</span> : null}
      <ReviewControl
        workspaceId={target.workspaceId}
        serverName={entry.name}
        view={target.view}
        openRequest={openRequestOf(activation, target.canReadApprovals)}
        mayAsk={target.canRequestReview && mayAskForReview(activation, entry.status === 'resolved')}
        askLabel={askForReviewLabel(activation)}
        compact
      />
    </span>
  );
}
