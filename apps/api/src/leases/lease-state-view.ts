import type { leaseStateView } from '@gatehouse/commands';
import type { Lease } from '@gatehouse/db';
import type { z } from 'zod';

/** A lease's times as renew and release answer them (no secret: the transport was the issuing response's). */
export function leaseStateOf(lease: Lease): z.infer<typeof leaseStateView> {
  return {
    id: lease.id,
    expiresAt: lease.expiresAt.toISOString(),
    renewedAt: lease.renewedAt?.toISOString() ?? null,
    releasedAt: lease.releasedAt?.toISOString() ?? null,
  };
}
