import { assertSafeAppRole } from './tenancy/role-safety.guard';
import { addRevocationAppendListener } from './ledger/revocation-ledger.repository';
import { closeAfterCommit, openAfterCommit } from './tenancy/after-commit';
import { createPrismaClient, type TenantTx } from './tenancy/prisma-client';
import { contextId } from './tenancy/tenant-context';
import { createTenantReadPipeline, type TenantReadQuery } from './tenancy/tenant-read-pipeline';

export interface CreateDatabaseOptions {
  /** The app role's URL (DATABASE_URL): gatehouse_app, never the owner or a superuser. */
  url: string;
  poolMax?: number;
  /** Called for errors of idle pooled connections (a restarted Postgres), which would otherwise be lost. */
  onPoolError?: (error: Error) => void;
}

export interface UnitOfWorkOptions {
  /** Upper bound for the whole transaction in ms (default 10 000). */
  timeoutMs?: number;
  /** How long to wait for a pooled connection in ms (default 5 000). */
  maxWaitMs?: number;
}

export type UnitOfWork<T> = (tx: TenantTx) => Promise<T>;

/** A tagged-template raw query (Prisma's `$queryRaw`): values are always bound parameters, never spliced. */
export type LookupQuery = <R>(strings: TemplateStringsArray, ...values: unknown[]) => Promise<R[]>;

export interface Database {
  /** Runs `fn` in one transaction with app.tenant_id set: row-level security shows only that tenant's rows. */
  withTenant<T>(tenantId: string, fn: UnitOfWork<T>, options?: UnitOfWorkOptions): Promise<T>;
  /**
   * Like withTenant, also setting app.user_id: the user's own row becomes visible and writable (users are
   * global, so creating or changing one needs this even inside its tenant).
   */
  withTenantAndUser<T>(
    tenantId: string,
    userId: string,
    fn: UnitOfWork<T>,
    options?: UnitOfWorkOptions,
  ): Promise<T>;
  /**
   * One read-only statement in the tenant's row-level-security context, in ONE round trip (BEGIN READ ONLY,
   * set_config, the query, COMMIT pipelined on one connection; tenant-read-pipeline.ts). For the hot read
   * paths of this lib's typed readers (reads/); everything else, and every write, goes through withTenant.
   */
  readInTenant<R>(tenantId: string, query: TenantReadQuery): Promise<R[]>;
  /** Like readInTenant for several statements: one READ ONLY transaction, one round trip, answers in order. */
  readManyInTenant(tenantId: string, queries: readonly TenantReadQuery[]): Promise<unknown[][]>;
  /**
   * A short read-write transaction in the tenant in ONE round trip (tenancy/tenant-read-pipeline.ts): BEGIN,
   * set_config, the statements and COMMIT pipelined together, answers in order, all or nothing. For a hot path
   * whose writes need no answer from the API between statements (lease issuance: its locks are held only inside
   * Postgres, decision 0100); everything else goes through withTenant. No after-commit hooks: a unit that
   * appends to the revocation ledger must use withTenant.
   */
  writeInTenant(tenantId: string, queries: readonly TenantReadQuery[]): Promise<unknown[][]>;
  /**
   * A transaction with no tenant: every tenant table is empty. For definer calls that must share a transaction
   * with something else; a single definer call is cheaper through `lookup`.
   */
  withoutTenant<T>(fn: UnitOfWork<T>, options?: UnitOfWorkOptions): Promise<T>;
  /**
   * A SECURITY DEFINER lookup as ONE statement on a pooled connection, outside any transaction: one round trip
   * instead of four (BEGIN, set_config, the call, COMMIT) on the authenticated hot path. No tenant is set and
   * none is left over from an earlier unit of work, because withTenant's set_config(..., true) ends with its
   * transaction (row-level-security.int-spec.ts proves it on a one-connection pool). Only for calls of the gh_*
   * definer functions (gh_auth_token, gh_auth_session, gh_auth_login, gh_tenant_ids, gh_tenant_id_by_slug):
   * they read as gatehouse_auth, whose policies do not depend on app.tenant_id, so the answer is the same
   * whatever the connection's state; model queries belong in withTenant.
   */
  lookup<T>(fn: (query: LookupQuery) => Promise<T>): Promise<T>;
  /**
   * `listener` runs after every commit (of any Database of this process) whose unit of work appended to the
   * revocation ledger: the relay's wake-up. Returns the unsubscribe function.
   */
  onRevocationsAppended(listener: () => void): () => void;
  /** Round trip to Postgres (readiness). */
  ping(): Promise<void>;
  /** Throws UnsafeDatabaseRoleError (one-line message) when the connected role would not be held by RLS. */
  assertSafeAppRole(): Promise<void>;
  close(): Promise<void>;
}

export function createDatabase(options: CreateDatabaseOptions): Database {
  const { prisma, close: closePrisma } = createPrismaClient(options);
  const pipeline = createTenantReadPipeline({
    url: options.url,
    poolMax: Math.max(1, Math.ceil((options.poolMax ?? 10) / 2)),
    writePoolMax: Math.max(1, Math.ceil((options.poolMax ?? 10) / 5)),
    ...(options.onPoolError ? { onPoolError: options.onPoolError } : {}),
  });

  // set_config(..., true) is transaction-local, so a pooled connection never carries a tenant into the next
  // unit of work. Both settings are always written, so an empty string explicitly means "none".
  // After-commit hooks (tenancy/after-commit.ts) run once $transaction has resolved, i.e. after COMMIT.
  async function run<T>(
    tenantId: string,
    userId: string,
    fn: UnitOfWork<T>,
    opts?: UnitOfWorkOptions,
  ): Promise<T> {
    let unit: TenantTx | undefined;
    let committed = false;
    try {
      const result = await prisma.$transaction(
        async (tx) => {
          unit = tx;
          openAfterCommit(tx);
          await tx.$executeRaw`SELECT set_config('app.tenant_id', ${tenantId}, true), set_config('app.user_id', ${userId}, true)`;
          return fn(tx);
        },
        { timeout: opts?.timeoutMs ?? 10_000, maxWait: opts?.maxWaitMs ?? 5_000 },
      );
      committed = true;
      return result;
    } finally {
      if (unit) closeAfterCommit(unit, committed);
    }
  }

  const query: LookupQuery = <R>(strings: TemplateStringsArray, ...values: unknown[]) =>
    prisma.$queryRaw<R[]>(strings, ...values);

  return {
    // async, so a bad id rejects like any other failure instead of throwing synchronously.
    withTenant: async (tenantId, fn, opts) => run(contextId('tenantId', tenantId), '', fn, opts),
    withTenantAndUser: async (tenantId, userId, fn, opts) =>
      run(contextId('tenantId', tenantId), contextId('userId', userId), fn, opts),
    withoutTenant: async (fn, opts) => run('', '', fn, opts),
    readInTenant: async (tenantId, query) => pipeline.read(contextId('tenantId', tenantId), '', query),
    readManyInTenant: async (tenantId, queries) =>
      pipeline.readMany(contextId('tenantId', tenantId), '', queries),
    writeInTenant: async (tenantId, queries) =>
      pipeline.writeMany(contextId('tenantId', tenantId), '', queries),
    lookup: async (fn) => fn(query),
    onRevocationsAppended: (listener) => addRevocationAppendListener(listener),
    ping: async () => {
      await prisma.$queryRaw`SELECT 1`;
    },
    assertSafeAppRole: () => assertSafeAppRole(prisma),
    close: async () => {
      await Promise.all([closePrisma(), pipeline.close()]);
    },
  };
}
