import type { QueuePayloadFailureReason } from '@gatehouse/contracts';
import { UnrecoverableError } from 'bullmq';

/**
 * A job whose payload can never succeed. Unrecoverable, so BullMQ fails it at once without retries; the
 * message is the typed reason alone, so `job.failedReason` is stable and carries no payload value.
 */
export class JobRejectedError extends UnrecoverableError {
  constructor(readonly reason: QueuePayloadFailureReason) {
    super(reason);
    this.name = 'JobRejectedError';
  }
}
