import type { Redis } from 'ioredis';
import { assertCoordinationName } from './coordination-names';

// The revocation ledger's pub/sub side (docs/decisions/0053-revocation-relay-and-holders.md). Redis carries
// announcements only: the ledger in Postgres is the record, read back through `GET /v1/revocations?since=`.
// Two streams, each with its own gapless positions: the platform stream (every event, for gateway tokens and the
// API itself) and one per tenant (tenant-bound tokens).

export type RevocationStreamRef =
  { readonly stream: 'platform' } | { readonly stream: 'tenant'; readonly tenantId: string };

export function revocationChannel(namespace: string, ref: RevocationStreamRef): string {
  assertCoordinationName('namespace', namespace);
  return ref.stream === 'platform'
    ? `${namespace}:revocations:platform`
    : `${namespace}:revocations:tenant:${ref.tenantId.toLowerCase()}`;
}

/**
 * A ledger row as announced on one stream: its position there and the rest as stored. Not checked against the
 * contract here: a holder judges every event it receives, and revalidates on one it cannot read.
 */
export interface AnnouncedRevocation {
  readonly seq: number;
  /** The ledger the event is of (decision 0120): holders ignore another ledger's announcements. */
  readonly ledger: string;
  readonly tenantId: string | null;
  readonly kind: string;
  readonly subject: unknown;
  readonly occurredAt: string;
}

/** One ledger row as the relay announces it: on the platform stream, and on its tenant's stream if it has one. */
export interface RevocationAnnouncement {
  readonly platform: AnnouncedRevocation;
  readonly tenant: AnnouncedRevocation | null;
}

/**
 * Publishes announcements in order, both channels of each in one MULTI, so no subscriber of either stream sees
 * them out of order. The caller (the relay) publishes ledger rows in position order and may publish one twice
 * (at least once): holders drop what they already have by position.
 */
export async function publishRevocations(
  connection: Redis,
  namespace: string,
  announcements: readonly RevocationAnnouncement[],
): Promise<void> {
  if (announcements.length === 0) return;
  const multi = connection.multi();
  for (const { platform, tenant } of announcements) {
    multi.publish(revocationChannel(namespace, { stream: 'platform' }), JSON.stringify(platform));
    if (tenant !== null && tenant.tenantId !== null) {
      multi.publish(
        revocationChannel(namespace, { stream: 'tenant', tenantId: tenant.tenantId }),
        JSON.stringify(tenant),
      );
    }
  }
  const replies = await multi.exec();
  for (const [error] of replies ?? []) if (error) throw error;
}
