import { z } from 'zod';
import { QueueName } from './queue-name';

/**
 * Version 1 of a probe job (docs/decisions/0078-probe-queue.md): check that one server of one
 * workspace can be reached now, for one principal (or the workspace alone), on one pool: lease, connect (the
 * handshake), ping, release, and report the connection state and failure class for the lease
 * (`POST /v1/leases/:leaseId/probe`). Unlike a catalog refresh it lists nothing.
 *
 * Strict, like every queue payload; ids, the server's name, the fingerprint and the pool's name only.
 */
export const probePayloadV1 = z.strictObject({
  v: z.literal(1),
  tenantId: z.uuid(),
  workspaceId: z.uuid(),
  serverName: z.string().min(1).max(128),
  /** The definition fingerprint the producer saw (the report is stored under the lease's). */
  definitionFingerprint: z.string().min(1).max(200),
  /** The principal the connection is for; null: the workspace alone. */
  principalUserId: z.uuid().nullable(),
  /** The pool that may run it; the job sits on that pool's queue (`probeQueueOf`). */
  pool: z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/),
  reason: z.enum(['scheduled', 'manual']),
  requestedAt: z.iso.datetime({ offset: true }),
});
export type ProbePayloadV1 = z.infer<typeof probePayloadV1>;

/** Every probe version a worker accepts. */
export const probePayload = z.discriminatedUnion('v', [probePayloadV1]);
export type ProbePayload = z.infer<typeof probePayload>;

export type ProbeKey = Pick<
  ProbePayloadV1,
  'workspaceId' | 'serverName' | 'definitionFingerprint' | 'principalUserId'
>;

/** One part of a job id: percent-encoded, dots too, so `.` only separates parts and `:` never appears. */
function part(value: string): string {
  return encodeURIComponent(value).replace(/\./g, '%2E');
}

/** The idempotency key and BullMQ jobId over (workspace, server, fingerprint, principal), as for refreshes. */
export function probeJobKey(key: ProbeKey): string {
  return [
    QueueName.Probe,
    part(key.workspaceId),
    part(key.principalUserId ?? 'none'),
    part(key.definitionFingerprint),
    part(key.serverName),
  ].join('.');
}

/** The BullMQ queue a pool's workers consume for probes: `probe.<pool>`. */
export function probeQueueOf(pool: string): string {
  return `${QueueName.Probe}.${pool}`;
}
