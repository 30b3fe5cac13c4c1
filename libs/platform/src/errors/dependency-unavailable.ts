// Whether an error thrown while handling a request means that Postgres was momentarily out of reach, so the
// client should retry (503 `dependency_unavailable` with Retry-After) rather than be told of a fault of ours
// (500 `internal`). Only failures to get or keep a connection count; a query Postgres refused for what it
// asked stays a 500, and so does any Prisma transaction misuse (a closed or expired transaction).

/** What the warn line names: a driver or server code, never the error's message (it may name a host). */
export interface DependencyFailure {
  readonly dependency: 'postgres';
  /** A Prisma error code, a driver adapter's error kind or a SQLSTATE (e.g. `P2028`, `TooManyConnections`). */
  readonly cause: string;
}

/** Prisma's codes for a database it could not reach or a connection it could not get in time. */
const PRISMA_CODES = new Set([
  'P1001', // can't reach the database server
  'P1002', // the server was reached but timed out
  'P1008', // operations timed out
  'P1017', // the server closed the connection
  'P2024', // timed out fetching a connection from the pool
]);

/**
 * P2028 is every error of Prisma's transaction manager; only this one is about the database being busy: the
 * interactive transaction did not get its connection within `maxWait`. Its fn never ran, so nothing was written.
 */
const TRANSACTION_NOT_STARTED = 'Unable to start a transaction in the given time';

/** @prisma/adapter-pg's kinds for a connection refused, lost or timed out, and a server out of connections. */
const ADAPTER_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
]);

/**
 * SQLSTATEs of a server that cannot serve a connection now: class 08 (connection exception), too many
 * connections, and shutting down, crashed or starting up.
 */
function isUnavailableSqlState(code: string): boolean {
  return /^08[0-9A-Z]{3}$/.test(code) || ['53300', '57P01', '57P02', '57P03'].includes(code);
}

/** pg-pool's own error when `connectionTimeoutMillis` passes before a connection is free. */
const PG_POOL_TIMEOUT = 'timeout exceeded when trying to connect';

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function failureOfOne(value: unknown): DependencyFailure | null {
  const code = field(value, 'code');
  const message = field(value, 'message');
  if (typeof code === 'string') {
    if (PRISMA_CODES.has(code)) return { dependency: 'postgres', cause: code };
    if (code === 'P2028' && typeof message === 'string' && message.includes(TRANSACTION_NOT_STARTED))
      return { dependency: 'postgres', cause: code };
    if (isUnavailableSqlState(code)) return { dependency: 'postgres', cause: code };
  }
  const kind = field(value, 'kind');
  if (typeof kind === 'string' && ADAPTER_KINDS.has(kind)) return { dependency: 'postgres', cause: kind };
  if (kind === 'postgres') {
    const sqlState = field(value, 'originalCode') ?? code;
    if (typeof sqlState === 'string' && isUnavailableSqlState(sqlState))
      return { dependency: 'postgres', cause: sqlState };
  }
  if (value instanceof Error && message === PG_POOL_TIMEOUT)
    return { dependency: 'postgres', cause: 'pool_timeout' };
  return null;
}

/**
 * The dependency failure behind `error`, or null. Looks at the error, its `cause`s and, for Prisma over the pg
 * driver adapter, `meta.driverAdapterError` and that error's `cause` (where the adapter puts its kind and the
 * SQLSTATE), a few hops deep.
 */
export function dependencyFailureOf(error: unknown): DependencyFailure | null {
  const pending: { value: unknown; hops: number }[] = [{ value: error, hops: 0 }];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next === undefined || typeof next.value !== 'object' || next.value === null) continue;
    const failure = failureOfOne(next.value);
    if (failure !== null) return failure;
    if (next.hops >= 4) continue;
    pending.push({ value: field(next.value, 'cause'), hops: next.hops + 1 });
    pending.push({ value: field(field(next.value, 'meta'), 'driverAdapterError'), hops: next.hops + 1 });
  }
  return null;
}
