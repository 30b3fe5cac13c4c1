import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { CLOSE_ON_SHUTDOWN, SERVICE_LOGGER } from './operational-tokens.js';

/** A connection or pool built before Nest started, closed when the app shuts down. */
export interface ClosableResource {
  /** Named in the log line when closing it fails (`redis`, `postgres`). */
  readonly name: string;
  close(): Promise<void>;
}

/**
 * Closes the resources the app was built with. `onApplicationShutdown` runs after every
 * `beforeApplicationShutdown` (where BullMQ workers and queues close) and after Nest closed the HTTP server
 * (which drains in-flight requests), so nothing in use loses its connection mid-way.
 */
@Injectable()
export class ShutdownResourcesLifecycle implements OnApplicationShutdown {
  constructor(
    @Inject(CLOSE_ON_SHUTDOWN) private readonly resources: readonly ClosableResource[],
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    const results = await Promise.allSettled(this.resources.map((resource) => resource.close()));
    for (const [index, result] of results.entries()) {
      if (result.status === 'rejected') {
        this.logger.warn({ err: result.reason, resource: this.resources[index]?.name }, 'close failed');
      }
    }
  }
}
