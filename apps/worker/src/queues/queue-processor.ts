import type { QueueName, QueuePayloads } from '@gatehouse/contracts';

/**
 * What a processor sees of its job: ids for logs and idempotency, never the raw data; `lastAttempt` when a throw
 * now would end the job instead of retrying it (a processor reports what it gives up on before it does).
 */
export type JobContext = { jobId: string; attempt: number; lastAttempt: boolean; queue: QueueName };

/**
 * One queue's handler. It receives the payload already validated against the queue's versioned schema, and
 * must be safe to run twice for the same jobId (BullMQ redelivers after a crash or a stalled lock).
 */
export interface QueueProcessor<Q extends QueueName> {
  handle(payload: QueuePayloads[Q], job: JobContext): Promise<unknown>;
}

/** Exactly one processor per queue: a queue added to the enum without one fails to compile. */
export type QueueProcessors = { [Q in QueueName]: QueueProcessor<Q> };
