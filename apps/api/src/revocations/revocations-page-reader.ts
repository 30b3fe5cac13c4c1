import type { RevocationsPage } from '@gatehouse/contracts';
import {
  readRevocationEventsSince,
  sequenceRevocationEvents,
  type Database,
  type RevocationScope,
} from '@gatehouse/db';
import { revocationLedgerIdOf } from './revocation-ledger-identity.js';

/** A page, or why `since` names no position of the stream (it is past the stream's head). */
export type CheckedRevocationsPage =
  | { readonly ok: true; readonly page: RevocationsPage }
  | { readonly ok: false; readonly reason: 'since_beyond_head'; readonly head: number };

/**
 * One page of a revocation stream after `since` (`revocations.list`). Sequences committed events first, so a
 * reader is never behind the ledger because a relay has not run yet. Rows are passed on as stored (their position
 * always): a holder that cannot read one revalidates, it is not hidden. A `since` past the stream's head is no
 * position of this ledger (a holder of another database, a made-up number): refused, never an empty page that
 * would let the holder believe it saw everything.
 */
export async function readCheckedRevocationsPage(
  db: Database,
  scope: RevocationScope,
  since: number,
  limit: number,
): Promise<CheckedRevocationsPage> {
  const ledger = await revocationLedgerIdOf(db);
  await db.lookup((query) => sequenceRevocationEvents(query));
  const { rows, head } = await readRevocationEventsSince(db, scope, since, limit);
  if (since > head) return { ok: false, reason: 'since_beyond_head', head };
  const events = rows.map((row) => ({
    seq: scope.stream === 'tenant' ? (row.tenantSeq ?? row.seq) : row.seq,
    tenantId: row.tenantId,
    kind: row.kind,
    subject: row.subject,
    occurredAt: row.occurredAt,
  }));
  return {
    ok: true,
    page: {
      stream: scope.stream,
      ledger,
      events,
      next: events.at(-1)?.seq ?? since,
      head,
      hasMore: events.length === limit,
    },
  };
}

/** The same page for the API's own holder, which never asks past the head: a later `since` reads as the head. */
export async function readRevocationsPage(
  db: Database,
  scope: RevocationScope,
  since: number,
  limit: number,
): Promise<RevocationsPage> {
  const read = await readCheckedRevocationsPage(db, scope, since, limit);
  if (read.ok) return read.page;
  const ledger = await revocationLedgerIdOf(db);
  return { stream: scope.stream, ledger, events: [], next: since, head: since, hasMore: false };
}
