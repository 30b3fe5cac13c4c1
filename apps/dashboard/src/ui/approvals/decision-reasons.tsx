import type { ApprovalView } from '@/views/approval-views';
import styles from './approvals.module.css';

/** A decision's own words and, once revoked, the revocation's: in the decisions list and on a request. */
export function DecisionReasons({ approval }: { approval: ApprovalView }) {
  if (approval.reason === null && approval.revokeReason === null)
    return <span className="muted">No reason given</span>;
  return (
    <span className="cell-stack" data-decision-reasons="">
      {approval.reason !== null ? <q className={styles.reason}>{approval.reason}</q> : null}
      {approval.revokeReason !== null ? (
        <span className={styles.reason}>
          Revoked: <q>{approval.revokeReason}</q>
        </span>
      ) : null}
    </span>
  );
}
