import { GENESIS_HASH, bytesEqual, computeAuditHash, type AuditHashFields } from './audit-chain-encoding';

/** An audit row as read back from the database. */
export interface StoredAuditRow extends AuditHashFields {
  readonly prevHash: Uint8Array;
  readonly hash: Uint8Array;
}

/** The `audit_heads` row (seq 0 and the genesis hash stand for a tenant without one). */
export interface StoredAuditHead {
  readonly seq: bigint;
  readonly hash: Uint8Array;
}

/** A head recorded outside the database earlier (the `audit.checkpoint` log line or the head export). */
export interface AuditCheckpoint {
  readonly seq: bigint;
  readonly hash: Uint8Array;
}

export type AuditChainProblem =
  'hash_mismatch' | 'broken_link' | 'sequence_gap' | 'truncated' | 'checkpoint_mismatch';

export type AuditChainVerdict =
  | { readonly ok: true; readonly checkedRows: number }
  | {
      readonly ok: false;
      readonly checkedRows: number;
      readonly problem: AuditChainProblem;
      readonly firstBadSeq: bigint;
    };

/**
 * Walks one tenant's chain in seq order, one row at a time (the caller reads in batches), and names the first
 * bad row:
 * - `sequence_gap`: a seq is missing in the middle (a deleted row); names the missing seq.
 * - `hash_mismatch`: the row's content no longer hashes to its stored hash (an edited row).
 * - `broken_link`: the row's prevHash is not the previous row's hash (a row edited and re-hashed, or spliced).
 * - `checkpoint_mismatch`: the row at the checkpoint's seq has another hash, or the head row disagrees with the
 *   last event (names the first row the head does not account for).
 * - `truncated`: the chain ends before the checkpoint's seq or the head's seq (the newest rows deleted); names
 *   the first missing seq.
 * Checks run in row order, so the lowest bad seq is reported; end-of-chain checks run only for an intact chain.
 */
export class AuditChainVerifier {
  private expectedSeq = 1n;
  private lastHash: Uint8Array = GENESIS_HASH;
  private checked = 0;
  private failure: AuditChainVerdict | undefined;

  constructor(private readonly checkpoint?: AuditCheckpoint) {}

  /** The verdict so far if a problem was found; push no more rows after that. */
  get failed(): AuditChainVerdict | undefined {
    return this.failure;
  }

  /** The seq the next row must have. */
  get nextSeq(): bigint {
    return this.expectedSeq;
  }

  push(row: StoredAuditRow): void {
    if (this.failure) return;
    if (row.seq !== this.expectedSeq) return this.fail('sequence_gap', this.expectedSeq);
    if (!bytesEqual(computeAuditHash(row.prevHash, row), row.hash))
      return this.fail('hash_mismatch', row.seq);
    if (!bytesEqual(row.prevHash, this.lastHash)) return this.fail('broken_link', row.seq);
    if (this.checkpoint && this.checkpoint.seq === row.seq && !bytesEqual(this.checkpoint.hash, row.hash)) {
      return this.fail('checkpoint_mismatch', row.seq);
    }
    this.checked += 1;
    this.expectedSeq = row.seq + 1n;
    this.lastHash = row.hash;
  }

  finish(head: StoredAuditHead | undefined): AuditChainVerdict {
    if (this.failure) return this.failure;
    const lastSeq = this.expectedSeq - 1n;
    const cp = this.checkpoint;
    if (cp) {
      if (cp.seq > lastSeq) return this.verdict('truncated', lastSeq + 1n);
      if (cp.seq === 0n && !bytesEqual(cp.hash, GENESIS_HASH)) return this.verdict('checkpoint_mismatch', 0n);
    }
    const headSeq = head?.seq ?? 0n;
    const headHash = head?.hash ?? GENESIS_HASH;
    if (headSeq > lastSeq) return this.verdict('truncated', lastSeq + 1n);
    if (headSeq < lastSeq) return this.verdict('checkpoint_mismatch', headSeq + 1n);
    if (!bytesEqual(headHash, this.lastHash)) return this.verdict('checkpoint_mismatch', lastSeq);
    return { ok: true, checkedRows: this.checked };
  }

  private fail(problem: AuditChainProblem, seq: bigint): void {
    this.failure = this.verdict(problem, seq);
  }

  private verdict(problem: AuditChainProblem, firstBadSeq: bigint): AuditChainVerdict {
    return { ok: false, checkedRows: this.checked, problem, firstBadSeq };
  }
}
