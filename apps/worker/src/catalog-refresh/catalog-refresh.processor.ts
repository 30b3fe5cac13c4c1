import type { CatalogRefreshPayload, QueueName } from '@gatehouse/contracts';
import type { Logger } from '@gatehouse/platform';
import { Inject, Injectable } from '@nestjs/common';
import { LOGGER } from '../infrastructure/infrastructure.tokens.js';
import type { JobContext, QueueProcessor } from '../queues/queue-processor.js';

export type CatalogRefreshOutcome = { outcome: 'skipped'; reason: 'leases_not_available' };

/**
 * Refreshes one server's catalog for one workspace. Discovery needs a transport lease from the API, which a
 * later issue adds; until then the job is accepted, logged by ids and completed as skipped, so queueing,
 * validation and shutdown are exercised end to end. Running it twice is harmless.
 */
@Injectable()
export class CatalogRefreshProcessor implements QueueProcessor<typeof QueueName.CatalogRefresh> {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  async handle(payload: CatalogRefreshPayload, job: JobContext): Promise<CatalogRefreshOutcome> {
    this.logger.info(
      {
        jobId: job.jobId,
        attempt: job.attempt,
        tenantId: payload.tenantId,
        workspaceId: payload.workspaceId,
        reason: payload.reason,
      },
      'catalog refresh skipped: transport leases are not available yet',
    );
    return { outcome: 'skipped', reason: 'leases_not_available' };
  }
}
