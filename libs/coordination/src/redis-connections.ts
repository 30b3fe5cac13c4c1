import type { Redis } from 'ioredis';
import type { CoordinationLogger } from './coordination-logger';
import { closeRedis, createRedisConnection, type RedisConnectionPurpose } from './redis-connection-factory';

export interface RedisConnectionsOptions {
  // REDIS_URL; may carry a password (handed to ioredis, never logged).
  readonly url: string;
  // The process's name (`api`, `gateway`, `worker`): the first word of every connection's CLIENT LIST name.
  readonly app: string;
  readonly logger?: CoordinationLogger;
}

/**
 * Where every Redis connection of an app comes from (one provider per app, injected by this class): the app's
 * main connection and the dedicated ones a collaborator needs for itself (a subscriber, its own command socket),
 * all opened through createRedisConnection with the app's URL, name and logger. The one that opens a dedicated
 * connection owns it and closes it in its own shutdown, in the order it needs; close() ends whatever is still
 * open, after every other hook ran (createServiceApp's closeOnShutdown).
 */
export class RedisConnections {
  private readonly opened = new Set<Redis>();

  constructor(private readonly options: RedisConnectionsOptions) {}

  /** A new connection named `<app>[-<role>]:<purpose>` in CLIENT LIST. */
  open(purpose: RedisConnectionPurpose, role?: string): Redis {
    const connection = createRedisConnection({
      url: this.options.url,
      name: role === undefined ? this.options.app : `${this.options.app}-${role}`,
      purpose,
      ...(this.options.logger === undefined ? {} : { logger: this.options.logger }),
    });
    this.opened.add(connection);
    connection.once('end', () => this.opened.delete(connection));
    return connection;
  }

  /** Closes every connection still open (closeRedis: QUIT, then a bounded hard disconnect). */
  async close(): Promise<void> {
    await Promise.allSettled([...this.opened].map((connection) => closeRedis(connection)));
    this.opened.clear();
  }
}
