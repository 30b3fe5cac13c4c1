import { z } from 'zod';
import { QueueName } from './queue-name';

/**
 * Version 2 of a catalog refresh job (decision 0067): discover one server of one workspace, for
 * one principal (or the workspace alone), at one definition fingerprint, on one pool. The API is the producer
 * (an approval decided, a definition changed, `catalog.refresh`); a worker of `pool` consumes it, leases the
 * server (`POST /v1/leases`), discovers, posts the document to `POST /v1/leases/:leaseId/snapshot` and
 * releases.
 *
 * Strict: a producer that adds a field bumps `v` rather than have old workers ignore it. No secret and no
 * definition content travels here: ids, the server's name, the fingerprint and the pool's name only.
 */
export const catalogRefreshPayloadV2 = z.strictObject({
  v: z.literal(2),
  tenantId: z.uuid(),
  workspaceId: z.uuid(),
  /** The effective server name in the workspace's view (a definition server name). */
  serverName: z.string().min(1).max(128),
  /**
   * The definition fingerprint the producer saw. The lease the worker gets names the fingerprint of now; the
   * snapshot is stored under the lease's fingerprint, so a job overtaken by a change still discovers the present.
   */
  definitionFingerprint: z.string().min(1).max(200),
  /** The principal the catalog is for; null: the workspace alone. */
  principalUserId: z.uuid().nullable(),
  /**
   * The pool that may run it: open to the tenant and, for a stdio server, one whose ceiling allows it. The job
   * sits on that pool's queue (`catalogRefreshQueueOf`); a worker of another pool refuses it.
   */
  pool: z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/),
  reason: z.enum(['approval_decided', 'definition_changed', 'manual', 'list_changed', 'scheduled']),
  /** When the producer asked (ISO 8601); for logs and metrics only: the first trigger's job wins the id. */
  requestedAt: z.iso.datetime({ offset: true }),
});

export type CatalogRefreshPayloadV2 = z.infer<typeof catalogRefreshPayloadV2>;

export type CatalogRefreshKey = Pick<
  CatalogRefreshPayloadV2,
  'workspaceId' | 'serverName' | 'definitionFingerprint' | 'principalUserId'
>;

/** One part of a job id: percent-encoded, dots too, so `.` only ever separates parts and `:` never appears. */
function part(value: string): string {
  return encodeURIComponent(value).replace(/\./g, '%2E');
}

/**
 * The idempotency key and BullMQ jobId over (workspace, server, fingerprint, principal): repeated triggers for
 * the same catalog collapse into one job while it waits. Injective (every part is encoded, `.` separates), and
 * free of the `:` BullMQ refuses in custom ids.
 */
export function catalogRefreshJobKey(key: CatalogRefreshKey): string {
  return [
    QueueName.CatalogRefresh,
    part(key.workspaceId),
    part(key.principalUserId ?? 'none'),
    part(key.definitionFingerprint),
    part(key.serverName),
  ].join('.');
}

/**
 * The BullMQ queue a pool's workers consume: `catalog-refresh.<pool>`. Routing is by queue because a BullMQ
 * worker takes any job of its queue; the payload's `pool` is checked again by the processor.
 */
export function catalogRefreshQueueOf(pool: string): string {
  return `${QueueName.CatalogRefresh}.${pool}`;
}
