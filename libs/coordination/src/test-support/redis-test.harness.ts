import type { Redis } from 'ioredis';
import { RedisChannelMultiplexer } from '../channel-multiplexer';
import { closeRedis, createRedisConnection, type RedisConnectionPurpose } from '../redis-connection-factory';

// Integration-test plumbing for this lib: real connections to the test Redis under a namespace unique to the
// test file, all closed (and the namespace's keys deleted) by cleanup() in afterAll.
export class RedisTestHarness {
  private readonly connections: Redis[] = [];
  private readonly multiplexers: RedisChannelMultiplexer[] = [];
  private created = 0;

  constructor(
    private readonly url: string,
    readonly namespace: string,
  ) {}

  connection(purpose: RedisConnectionPurpose = 'command'): Redis {
    this.created += 1;
    const connection = createRedisConnection({
      url: this.url,
      name: `coordination-test-${this.created}`,
      purpose,
    });
    this.connections.push(connection);
    return connection;
  }

  multiplexer(): RedisChannelMultiplexer {
    const multiplexer = new RedisChannelMultiplexer(this.connection('subscriber'));
    this.multiplexers.push(multiplexer);
    return multiplexer;
  }

  async cleanup(): Promise<void> {
    await Promise.all(this.multiplexers.map((multiplexer) => multiplexer.close()));
    const admin = this.connection('command');
    let cursor = '0';
    do {
      const [next, keys] = await admin.scan(cursor, 'MATCH', `${this.namespace}:*`, 'COUNT', 1000);
      if (keys.length > 0) await admin.del(...keys);
      cursor = next;
    } while (cursor !== '0');
    await Promise.all(this.connections.map((connection) => closeRedis(connection)));
  }
}

// The last command Redis executed for `connection` (CLIENT LIST's `cmd` field), found by its connection name:
// lets a test wait until another party's request has really been processed by the server.
export async function lastCommandOf(admin: Redis, connection: Redis): Promise<string | null> {
  const name = connection.options.connectionName;
  const clients = (await admin.client('LIST')) as string;
  const line = clients.split('\n').find((entry) => entry.includes(` name=${name} `));
  return line?.match(/ cmd=(\S+)/)?.[1] ?? null;
}

// Resolves once `predicate` holds for what `probe` reads from Redis (for states only Redis can report, like a
// key having expired), probing every few milliseconds. Gives up after `attempts` so a broken expectation
// fails instead of hanging.
export async function pollUntil<T>(
  probe: () => Promise<T>,
  predicate: (value: T) => boolean,
  attempts = 2_000,
): Promise<T> {
  for (let i = 0; i < attempts; i += 1) {
    const value = await probe();
    if (predicate(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('condition not reached');
}
