import type { RevocationsPage } from '@gatehouse/contracts';
import {
  readRevocationEventsSince,
  sequenceRevocationEvents,
  type Database,
  type RevocationScope,
} from '@gatehouse/db';

/**
 * One page of a revocation stream after `since` (`revocations.list`, and the API's own holder). Sequences
 * committed events first, so a reader is never behind the ledger because a relay has not run yet. Rows are
 * passed on as stored (their position always): a holder that cannot read one revalidates, it is not hidden.
 */
export async function readRevocationsPage(
  db: Database,
  scope: RevocationScope,
  since: number,
  limit: number,
): Promise<RevocationsPage> {
  await db.lookup((query) => sequenceRevocationEvents(query));
  const { rows, head } = await readRevocationEventsSince(db, scope, since, limit);
  const events = rows.map((row) => ({
    seq: scope.stream === 'tenant' ? (row.tenantSeq ?? row.seq) : row.seq,
    tenantId: row.tenantId,
    kind: row.kind,
    subject: row.subject,
    occurredAt: row.occurredAt,
  }));
  return {
    stream: scope.stream,
    events,
    next: events.at(-1)?.seq ?? since,
    head: Math.max(head, since),
    hasMore: events.length === limit,
  };
}
