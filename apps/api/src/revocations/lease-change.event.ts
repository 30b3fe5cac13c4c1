import type { RevocationKind, RevocationSubject } from '@gatehouse/contracts';
import { appendRevocationEvent, type TenantTx } from '@gatehouse/db';

// The one line a use case adds beside a change a lease depends on (docs/decisions/0052-revocation-ledger.md):
// the ledger event, in the same transaction as the change. Members given as null (a managed source has no
// workspace, a tenant variable no user) are left out, which holders read as "any".

export type LeaseChangeSubject = {
  readonly [K in keyof RevocationSubject]?: RevocationSubject[K] | null;
};

export async function appendLeaseChange(
  tx: TenantTx,
  kind: RevocationKind,
  subject: LeaseChangeSubject = {},
): Promise<void> {
  const compact: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(subject))
    if (value !== null && value !== undefined) compact[key] = value;
  await appendRevocationEvent(tx, { kind, subject: compact as RevocationSubject });
}
