import type { Database } from '@gatehouse/db';
import type { Logger } from '@gatehouse/platform';
import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { DATABASE, LOGGER } from '../infrastructure/infrastructure-tokens.js';
import { ApprovalExpirySweep } from './approval-expiry-sweep.js';

/**
 * Runs the approval-expiry sweep in every API process (decision 0072: a timer here rather than a BullMQ
 * repeatable job, so recording an expiry needs no worker and no queue, and several processes are safe by the
 * claim itself). A pass runs at boot and then every interval; a failed pass only logs. Stops with the app.
 */
@Injectable()
export class ApprovalExpiryLifecycle
  implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown
{
  private readonly sweep: ApprovalExpirySweep;
  private stopping: Promise<void> | null = null;

  constructor(@Inject(DATABASE) database: Database, @Inject(LOGGER) logger: Logger) {
    this.sweep = new ApprovalExpirySweep({ database, logger });
  }

  onApplicationBootstrap(): void {
    this.sweep.start();
  }

  beforeApplicationShutdown(): void {
    this.stopping ??= this.sweep.stop();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping ??= this.sweep.stop();
    await this.stopping;
  }
}
