import type { z } from 'zod';
import { catalogRefreshPayload, type CatalogRefreshPayload } from './catalog-refresh-payload.schema';
import { probePayload, type ProbePayload } from './probe-job.schema';
import { QueueName } from './queue-name';

/** The payload type of each queue. */
export type QueuePayloads = {
  [QueueName.CatalogRefresh]: CatalogRefreshPayload;
  [QueueName.Probe]: ProbePayload;
};

/** The schema of each queue's payload; a Record over QueueName, so a new queue without a schema fails to compile. */
export const QUEUE_PAYLOAD_SCHEMAS: { readonly [Q in QueueName]: z.ZodType<QueuePayloads[Q]> } =
  Object.freeze({
    [QueueName.CatalogRefresh]: catalogRefreshPayload,
    [QueueName.Probe]: probePayload,
  });

/** Which payload versions each queue's processors accept. */
export const SUPPORTED_PAYLOAD_VERSIONS: { readonly [Q in QueueName]: readonly number[] } = Object.freeze({
  [QueueName.CatalogRefresh]: Object.freeze([1, 2]),
  [QueueName.Probe]: Object.freeze([1]),
});

export type QueuePayloadFailureReason =
  /** `v` names a version this build does not know (a newer producer, or a retired version). */
  | 'unsupported_version'
  /** The payload does not match its version's schema. */
  | 'invalid_payload';

export type ParseQueuePayloadResult<Q extends QueueName> =
  | { ok: true; payload: QueuePayloads[Q] }
  /** `fields` are the paths of the offending fields: never their values, which may be tenant data. */
  | { ok: false; reason: QueuePayloadFailureReason; fields: string[] };

function versionOf(data: unknown): unknown {
  return typeof data === 'object' && data !== null ? (data as Record<string, unknown>).v : undefined;
}

/** Validates a job's data against its queue's schema. */
export function parseQueuePayload<Q extends QueueName>(queue: Q, data: unknown): ParseQueuePayloadResult<Q> {
  const version = versionOf(data);
  if (typeof version !== 'number' || !SUPPORTED_PAYLOAD_VERSIONS[queue].includes(version)) {
    return { ok: false, reason: 'unsupported_version', fields: ['v'] };
  }
  const result = QUEUE_PAYLOAD_SCHEMAS[queue].safeParse(data);
  if (result.success) return { ok: true, payload: result.data };
  const fields = [
    ...new Set(result.error.issues.map((issue) => issue.path.map(String).join('.') || '(root)')),
  ];
  return { ok: false, reason: 'invalid_payload', fields };
}
