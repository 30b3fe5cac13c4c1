import { Redis, type RedisOptions } from 'ioredis';
import { silentCoordinationLogger, type CoordinationLogger } from './coordination-logger';

// What a connection is for decides how it behaves while Redis is away:
// - `command`: request-path work (locks, publishing, reads). Commands fail after a few reconnect attempts so a
//   request or readiness probe gets an error instead of hanging.
// - `subscriber`: pub/sub. Waits for Redis forever; ioredis re-subscribes after a reconnect.
// - `bullmq`: handed to BullMQ, which requires `maxRetriesPerRequest: null` and refuses an ioredis keyPrefix
//   (it has its own `prefix` option).
export type RedisConnectionPurpose = 'command' | 'subscriber' | 'bullmq';

export interface CreateRedisConnectionOptions {
  // May carry a password: it is handed to ioredis and never logged or put in an error message.
  readonly url: string;
  // Shown in CLIENT LIST as `<name>:<purpose>` so an operator can tell which process holds which socket.
  readonly name: string;
  readonly purpose: RedisConnectionPurpose;
  readonly keyPrefix?: string;
  readonly logger?: CoordinationLogger;
}

const CONNECTION_NAME = /^[A-Za-z0-9._:-]{1,100}$/;
const COMMAND_MAX_RETRIES_PER_REQUEST = 3;
const RETRY_BASE_MS = 50;
const RETRY_CAP_MS = 2_000;
const RETRY_JITTER_MS = 100;
const DEFAULT_CLOSE_TIMEOUT_MS = 2_000;

// Exponential backoff capped at 2 s with a little jitter so replicas restarting together do not reconnect in
// lockstep. It never gives up (never returns null): a long-running service must come back once Redis does.
export function redisRetryDelayMs(attempt: number, random: () => number = Math.random): number {
  const exponential = RETRY_BASE_MS * 2 ** Math.max(0, Math.min(attempt - 1, 16));
  return Math.min(exponential, RETRY_CAP_MS) + Math.floor(random() * RETRY_JITTER_MS);
}

// Pure: the ioredis options for a purpose. The URL is not part of it (ioredis parses that itself).
export function buildRedisOptions(
  options: Omit<CreateRedisConnectionOptions, 'url' | 'logger'>,
): RedisOptions {
  if (!CONNECTION_NAME.test(options.name)) {
    throw new TypeError('Redis connection name must be 1-100 characters of [A-Za-z0-9._:-]');
  }
  if (options.purpose === 'bullmq' && options.keyPrefix) {
    throw new TypeError('BullMQ refuses ioredis keyPrefix: use the queue prefix option instead');
  }
  return {
    connectionName: `${options.name}:${options.purpose}`,
    lazyConnect: false,
    maxRetriesPerRequest: options.purpose === 'command' ? COMMAND_MAX_RETRIES_PER_REQUEST : null,
    retryStrategy: (attempt) => redisRetryDelayMs(attempt),
    // After a failover the old primary answers READONLY: reconnect (to the new primary behind the same address)
    // and resend the command instead of failing it.
    reconnectOnError: (error) => (error.message.startsWith('READONLY') ? 2 : false),
    ...(options.keyPrefix ? { keyPrefix: options.keyPrefix } : {}),
  };
}

export function createRedisConnection(options: CreateRedisConnectionOptions): Redis {
  assertRedisUrl(options.url);
  const redisOptions = buildRedisOptions(options);
  const connection = new Redis(options.url, redisOptions);
  logConnectionEvents(
    connection,
    redisOptions.connectionName ?? options.name,
    options.logger ?? silentCoordinationLogger,
  );
  return connection;
}

// ioredis (through `new URL`) would throw an error whose `input` property is the whole URL, password included;
// check first and throw an error that names nothing.
function assertRedisUrl(url: string): void {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    throw new TypeError('Redis URL is not a valid URL');
  }
  if (protocol !== 'redis:' && protocol !== 'rediss:') {
    throw new TypeError('Redis URL must start with redis:// or rediss://');
  }
}

// An `error` listener is required anyway (ioredis prints unhandled error events to the console). While Redis
// is down ioredis emits one error per reconnect attempt, so only the first of an outage is logged, plus one
// line when the connection is back.
function logConnectionEvents(connection: Redis, connectionName: string, logger: CoordinationLogger): void {
  let failing = false;
  connection.on('error', (error: unknown) => {
    if (failing) return;
    failing = true;
    logger.warn(
      { connection: connectionName, err: describeError(error) },
      'redis connection error; reconnecting',
    );
  });
  connection.on('ready', () => {
    if (!failing) return;
    failing = false;
    logger.info({ connection: connectionName }, 'redis connection ready again');
  });
}

// Only the code and message: ioredis errors carry the command arguments in other properties.
function describeError(error: unknown): { code?: string; message: string } {
  if (!(error instanceof Error)) return { message: 'non-error thrown' };
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? { code, message: error.message } : { message: error.message };
}

export interface CloseRedisOptions {
  readonly timeoutMs?: number;
}

// Graceful first (QUIT lets pending replies arrive), then a hard disconnect if QUIT has not finished within
// `timeoutMs` (a half-dead socket would otherwise hold shutdown, and a test run, forever). Resolves once the
// connection has ended (at once if it was waiting to reconnect), or after a second bounded wait following the hard
// disconnect; safe to call twice.
export async function closeRedis(connection: Redis, options: CloseRedisOptions = {}): Promise<void> {
  if (connection.status === 'end') return;
  if (connection.status === 'reconnecting') {
    // Waiting out its retry delay, with no socket: disconnect() cancels the retry, and ioredis emits no 'end' for a
    // connection with no socket to close, so waiting for one held every shutdown during a Redis outage for the
    // whole bound, per connection (8 s for the API).
    connection.disconnect();
    return;
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS;
  const ended = new Promise<'ended'>((resolve) => connection.once('end', () => resolve('ended')));
  if (connection.status === 'ready') {
    connection.quit().catch(() => undefined);
    if ((await withTimeout(ended, timeoutMs)) === 'ended') return;
  }
  // Not ready (connecting, reconnecting): nothing to flush, and QUIT would only sit in the offline queue.
  connection.disconnect();
  await withTimeout(ended, timeoutMs);
}

async function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    return await Promise.race([promise, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
