import type { getAuditHead, verifyAuditChain } from '@/server/api-queries';
import { DateTime } from '@/ui/date-time';
import { Callout, Panel, ProblemCallout } from '@/ui/feedback';
import styles from '@/ui/overview.module.css';

const PROBLEM_TEXT: Readonly<Record<string, string>> = {
  hash_mismatch: 'its contents do not match its hash (the row was changed)',
  broken_link: 'it does not link to the row before it (a row was removed or replaced)',
  sequence_gap: 'the sequence has a gap (a row was removed)',
  truncated: 'the newest rows are missing (the chain was truncated)',
  checkpoint_mismatch: 'it does not match the checkpoint',
};

// The audit chain as verified on this page load: intact, or the first row that breaks it; and the head to keep
// outside Gatehouse.
export function ChainStatusPanel({
  verification,
  head,
}: {
  verification: Awaited<ReturnType<typeof verifyAuditChain>>;
  head: Awaited<ReturnType<typeof getAuditHead>>;
}) {
  return (
    <Panel
      id="chain-status"
      title="Chain status"
      description="Recomputed from the first row each time this page loads."
    >
      {!verification.ok ? (
        <ProblemCallout problem={verification.problem} context="The chain could not be verified" />
      ) : verification.data.ok ? (
        <Callout tone="success" title="Chain intact">
          <p>
            {verification.data.checkedRows} rows checked; every hash matches and links to the row before it.
          </p>
        </Callout>
      ) : (
        <div role="alert">
          <Callout tone="warning" title={`Chain broken at row #${verification.data.firstBadSeq ?? '?'}`}>
            <p>
              Row #{verification.data.firstBadSeq ?? '?'} fails:{' '}
              {PROBLEM_TEXT[verification.data.problem ?? ''] ?? verification.data.problem}. Rows from there on
              cannot be relied on; restore them from a backup and compare with your exported checkpoints.
            </p>
          </Callout>
        </div>
      )}
      {head.ok ? (
        <dl className={styles.definition}>
          <dt>Head</dt>
          <dd>
            Row #{head.data.seq} at <DateTime value={head.data.at} />
          </dd>
          <dt>Head hash</dt>
          <dd>
            <code>{head.data.hash}</code>
          </dd>
          <dt>Checkpoint</dt>
          <dd className="muted">
            Keep the head outside Gatehouse (GET /v1/audit-events/head) to detect deletion of the newest rows.
          </dd>
        </dl>
      ) : (
        <ProblemCallout problem={head.problem} context="The chain head could not be loaded" />
      )}
    </Panel>
  );
}
