import { assertSafeAppRole } from './tenancy/role-safety.check';
import { createPrismaClient, type TenantTx } from './tenancy/prisma-client';
import { contextId } from './tenancy/tenant-context';

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
   * A transaction with no tenant: every tenant table is empty. Only for the SECURITY DEFINER lookups
   * (gh_auth_token, gh_auth_session, gh_auth_login, gh_tenant_ids, gh_tenant_id_by_slug).
   */
  withoutTenant<T>(fn: UnitOfWork<T>, options?: UnitOfWorkOptions): Promise<T>;
  /** Round trip to Postgres (readiness). */
  ping(): Promise<void>;
  /** Throws UnsafeDatabaseRoleError (one-line message) when the connected role would not be held by RLS. */
  assertSafeAppRole(): Promise<void>;
  close(): Promise<void>;
}

export function createDatabase(options: CreateDatabaseOptions): Database {
  const { prisma, close } = createPrismaClient(options);

  // set_config(..., true) is transaction-local, so a pooled connection never carries a tenant into the next
  // unit of work. Both settings are always written, so an empty string explicitly means "none".
  function run<T>(tenantId: string, userId: string, fn: UnitOfWork<T>, opts?: UnitOfWorkOptions): Promise<T> {
    return prisma.$transaction(
      async (tx) => {
        await tx.$executeRaw`SELECT set_config('app.tenant_id', ${tenantId}, true), set_config('app.user_id', ${userId}, true)`;
        return fn(tx);
      },
      { timeout: opts?.timeoutMs ?? 10_000, maxWait: opts?.maxWaitMs ?? 5_000 },
    );
  }

  return {
    // async, so a bad id rejects like any other failure instead of throwing synchronously.
    withTenant: async (tenantId, fn, opts) => run(contextId('tenantId', tenantId), '', fn, opts),
    withTenantAndUser: async (tenantId, userId, fn, opts) =>
      run(contextId('tenantId', tenantId), contextId('userId', userId), fn, opts),
    withoutTenant: async (fn, opts) => run('', '', fn, opts),
    ping: async () => {
      await prisma.$queryRaw`SELECT 1`;
    },
    assertSafeAppRole: () => assertSafeAppRole(prisma),
    close,
  };
}
