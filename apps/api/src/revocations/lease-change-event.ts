import type { RevocationKind, RevocationSubject } from '@gatehouse/contracts';
import { appendRevocationEvent, revokeLeasesConcernedBy, type TenantTx } from '@gatehouse/db';
import { lockAuditChain } from '../audit/append-audit-event';

// The one line a use case adds beside a change a lease depends on (docs/decisions/0052-revocation-ledger.md):
// the ledger event, in the same transaction as the change. Members given as null (a managed source has no
// workspace, a tenant variable no user) are left out, which holders read as "any".
//
// The same transaction also ends the live leases the event concerns (docs/decisions/0071-ledger-events-revoke-
// leases.md): the lease row, not a holder's memory of an event, is what renew and catalog.submit refuse on, so a
// holder that never saw the event is still refused, and a change and the end of what stood on it commit together.

export type LeaseChangeSubject = {
  readonly [K in keyof RevocationSubject]?: RevocationSubject[K] | null;
};

/** Appends the event and revokes the leases it concerns; returns how many leases it ended. */
export async function appendLeaseChange(
  tx: TenantTx,
  kind: RevocationKind,
  subject: LeaseChangeSubject = {},
): Promise<number> {
  const compact: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(subject))
    if (value !== null && value !== undefined) compact[key] = value;
  const event = compact as RevocationSubject;
  // The audit head before the lease rows: the one lock order of everything that writes leases (decision 0071).
  await lockAuditChain(tx);
  await appendRevocationEvent(tx, { kind, subject: event });
  return revokeLeasesConcernedBy(tx, event, kind);
}
