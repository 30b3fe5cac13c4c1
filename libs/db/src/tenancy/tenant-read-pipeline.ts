import { Pool, type PoolClient } from 'pg';

/** One parameterized SQL statement (values always bound, never spliced). */
export interface TenantReadQuery {
  readonly text: string;
  readonly values: readonly unknown[];
  /**
   * Prepares the statement once per connection under this name, so Postgres parses and plans it once instead of
   * on every unit: for the hot paths' statements, whose text never changes (one name, one text).
   */
  readonly name?: string;
}

export interface TenantReadPipelineOptions {
  readonly url: string;
  readonly poolMax?: number;
  /**
   * Connections for writeMany, apart from the reads' (default 2). A write unit never queues behind the read units
   * waiting for a connection: lease grants hold the tenant's audit head in turn (one batch in flight per tenant,
   * decision 0100), so a batch that waited for a read connection made every later grant of the tenant wait too.
   */
  readonly writePoolMax?: number;
  readonly onPoolError?: (error: Error) => void;
}

export interface TenantReadPipeline {
  /**
   * Runs `query` in its own READ ONLY transaction with app.tenant_id and app.user_id set, in ONE round trip:
   * BEGIN READ ONLY, set_config(..., true), the query and COMMIT are written together on a pipelined
   * connection (each with its own Sync) and answered together. Row-level security holds exactly as in
   * withTenant: the settings are transaction-local and end with the COMMIT; a write is refused by Postgres.
   */
  read<R>(tenantId: string, userId: string, query: TenantReadQuery): Promise<R[]>;
  /**
   * Several read-only statements in ONE READ ONLY transaction and one round trip, as `read` does for one: they
   * see one snapshot only as far as READ COMMITTED gives one (each statement its own), which a decision that
   * re-reads what it writes on (lease issuance) accounts for. Answers in the order given.
   */
  readMany(tenantId: string, userId: string, queries: readonly TenantReadQuery[]): Promise<unknown[][]>;
  /**
   * Several statements in ONE read-write transaction and ONE round trip: BEGIN, set_config, the statements and
   * COMMIT pipelined together, answers in order. Nothing waits on the API between them, so a lock one of them
   * takes is held only inside Postgres (decision 0100). A failed statement fails the rest and the COMMIT rolls
   * back: all or nothing. Row-level security as in withTenant.
   */
  writeMany(tenantId: string, userId: string, queries: readonly TenantReadQuery[]): Promise<unknown[][]>;
  close(): Promise<void>;
}

const BEGIN_READ_ONLY = 'BEGIN READ ONLY';
const BEGIN_READ_WRITE = 'BEGIN';
const SET_CONTEXT = "SELECT set_config('app.tenant_id', $1, true), set_config('app.user_id', $2, true)";
const COMMIT = 'COMMIT';

/**
 * The hot path's thin way to Postgres (Prisma stays for the schema, writes and typed queries). Its own small
 * pool of pipelined connections as the same app role: measured in bench/auth-throughput.bench.ts, the Prisma
 * interactive transaction that carries set_config costs four round trips through the Prisma runtime.
 */
export function createTenantReadPipeline(options: TenantReadPipelineOptions): TenantReadPipeline {
  const pool = new Pool({ connectionString: options.url, max: options.poolMax ?? 4, pipeline: true });
  const writePool = new Pool({
    connectionString: options.url,
    max: options.writePoolMax ?? 2,
    pipeline: true,
  });
  for (const each of [pool, writePool]) each.on('error', (error) => options.onPoolError?.(error));
  let closing: Promise<void> | undefined;

  async function pipelined(
    from: Pool,
    begin: string,
    tenantId: string,
    userId: string,
    queries: readonly TenantReadQuery[],
  ): Promise<unknown[][]> {
    const client: PoolClient = await from.connect();
    // pg writes each protocol message on its own (five per statement, each a syscall): corked while the unit is
    // queued (pipelined queries are written synchronously), they leave in one write and reach Postgres together,
    // so no statement of the unit waits on the API for the next one.
    const { stream } = client.connection;
    stream.cork();
    let answers: Promise<PromiseSettledResult<{ rows: unknown[] }>[]>;
    try {
      answers = Promise.allSettled([
        client.query(begin),
        client.query(SET_CONTEXT, [tenantId, userId]),
        ...queries.map((query) =>
          client.query(
            query.name === undefined
              ? { text: query.text, values: [...query.values] }
              : { name: query.name, text: query.text, values: [...query.values] },
          ),
        ),
        client.query(COMMIT),
      ]);
    } finally {
      stream.uncork();
    }
    const settled = await answers;
    // Only an idle connection goes back to the pool: one left inside a transaction (a failed COMMIT, a broken
    // socket) is closed, so no tenant context can outlive its unit of work.
    client.release(client.getTransactionStatus() !== 'I');
    // The first failure is the cause; the statements after it only answer that the transaction is aborted.
    for (const outcome of settled) if (outcome.status === 'rejected') throw outcome.reason;
    return settled.slice(2, 2 + queries.length).map((outcome) => {
      if (outcome.status !== 'fulfilled') throw new Error('tenant pipeline: a query was not answered');
      return outcome.value.rows as unknown[];
    });
  }

  const readMany = (tenantId: string, userId: string, queries: readonly TenantReadQuery[]) =>
    pipelined(pool, BEGIN_READ_ONLY, tenantId, userId, queries);

  async function read<R>(tenantId: string, userId: string, query: TenantReadQuery): Promise<R[]> {
    const [rows] = await readMany(tenantId, userId, [query]);
    if (rows === undefined) throw new Error('tenant read: the query was not answered');
    return rows as R[];
  }

  const writeMany = (tenantId: string, userId: string, queries: readonly TenantReadQuery[]) =>
    pipelined(writePool, BEGIN_READ_WRITE, tenantId, userId, queries);

  return {
    read,
    readMany,
    writeMany,
    close: () => {
      closing ??= Promise.all([pool.end(), writePool.end()]).then(() => undefined);
      return closing;
    },
  };
}
