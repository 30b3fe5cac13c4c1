import { z } from 'zod';
import { catalogRefreshPayloadV2 } from './catalog-refresh-job.schema';
import { QueueName } from './queue-name';

/**
 * Version 1 of a catalog refresh request: discover the tools of one server for one workspace. Strict, so a
 * producer that adds a field must bump `v` rather than have old workers ignore it.
 */
export const catalogRefreshPayloadV1 = z.strictObject({
  v: z.literal(1),
  /** Chosen once by the producer and reused on retries of the enqueue: it is the BullMQ jobId. */
  requestId: z.uuid(),
  tenantId: z.uuid(),
  workspaceId: z.uuid(),
  serverName: z.string().min(1).max(200),
  reason: z.enum(['scheduled', 'definition_changed', 'manual']),
});

export type CatalogRefreshPayloadV1 = z.infer<typeof catalogRefreshPayloadV1>;

/**
 * Every version a worker still accepts; a new version is added here beside the old one. v2
 * (`catalog-refresh-job.schema.ts`) is what the API produces; v1 has no producer left (no fingerprint, no pool).
 */
export const catalogRefreshPayload = z.discriminatedUnion('v', [
  catalogRefreshPayloadV1,
  catalogRefreshPayloadV2,
]);

export type CatalogRefreshPayload = z.infer<typeof catalogRefreshPayload>;

/**
 * The idempotency key: enqueuing the same request twice yields one job. BullMQ refuses `:` in custom ids,
 * and a uuid never contains one.
 */
export function catalogRefreshJobId(payload: Pick<CatalogRefreshPayloadV1, 'requestId'>): string {
  return `${QueueName.CatalogRefresh}.${payload.requestId}`;
}
