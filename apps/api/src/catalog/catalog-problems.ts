import { ProblemError } from '@gatehouse/platform';

/** The posted document is not the catalog of the leased server alone (another server, or several). */
export function snapshotMismatch(): ProblemError {
  return new ProblemError({
    status: 409,
    code: 'snapshot_mismatch',
    title: 'Snapshot mismatch',
    detail: "The document must be the catalog of the lease's server, and of that server alone.",
  });
}
