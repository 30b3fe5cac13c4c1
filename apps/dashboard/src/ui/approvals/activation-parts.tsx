import type { ActivationView } from '@/views/approval-views';
import type { EffectiveEntryView, EffectiveViewKind } from '@/views/definition-views';
import { DateTime } from '../date-time';
import { Badge } from '../feedback';
import overviewStyles from '../overview.module.css';
import {
  ACTIVATION_STATE_LABELS,
  activationReasonLabel,
  askForReviewLabel,
  describeStaleFields,
  mayAskForReview,
  notAdmissibleLine,
} from './approval-labels';
import styles from './approvals.module.css';
import { ReviewControl } from './review-control';

// A server's approval state on the Servers pages (server components): a badge, the reasons in words, what
// changed for a stale one, and the way to its review.

export function ActivationBadge({ activation }: { activation: ActivationView }) {
  const { label, tone } = ACTIVATION_STATE_LABELS[activation.state];
  return <Badge tone={tone}>{label}</Badge>;
}

/**
 * What the entry's statuses say together (docs/architecture/approvals.md): a disabled server shows the
 * decision beneath its overlay (the approval in force) and the overlay's reason; an approved one that no pool
 * may ever run says so, with the API's reasons (the dashboard never guesses admissibility).
 */
function agreement(entry: EffectiveEntryView): { activation: ActivationView; lines: string[] } {
  const lines: string[] = [];
  if (entry.status === 'disabled') {
    // Who disabled it is the Status column's; the overlay's own words are said here, beside the approval.
    if (entry.overlay?.reason) lines.push(`Why disabled: “${entry.overlay.reason}”`);
    if (entry.beneathOverlay !== null) return { activation: entry.beneathOverlay, lines };
    return { activation: entry.activation, lines };
  }
  if (entry.admission !== null && !entry.admission.admissible)
    lines.push(notAdmissibleLine(entry.admission.reasons));
  return { activation: entry.activation, lines };
}

/** The one line under the badge: for stale, what changed; else the first reason that is not "approved". */
function headline(activation: ActivationView): string {
  if (activation.state === 'stale')
    return `Changed since approval: ${describeStaleFields(activation.staleBecause)}`;
  const reason = activation.reasons[0];
  return reason === undefined ? '' : activationReasonLabel(reason);
}

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

interface ReviewTarget {
  readonly workspaceId: string;
  readonly view: EffectiveViewKind;
  /** Whether the reader may open the approval queue (owners, admins, approvers). */
  readonly canReadApprovals: boolean;
  readonly canRequestReview: boolean;
}

function openRequestOf(activation: ActivationView, canReadApprovals: boolean) {
  if (activation.openRequestId === null) return undefined;
  return { href: canReadApprovals ? `/approvals/${activation.openRequestId}` : null };
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
