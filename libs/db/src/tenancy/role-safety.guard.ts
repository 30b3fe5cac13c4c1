import type { PrismaClient } from '../generated/client';

export type UnsafeRoleReason = 'superuser' | 'bypassrls' | 'owns_tables' | 'owns_definer_functions';

/**
 * The app's DATABASE_URL names a role that row-level security would not hold. The message is one line, meant
 * to be printed as the reason the process refuses to boot.
 */
export class UnsafeDatabaseRoleError extends Error {
  constructor(
    readonly role: string,
    readonly reason: UnsafeRoleReason,
  ) {
    super(
      `Refusing to start: database role "${role}" ${DESCRIPTIONS[reason]}; DATABASE_URL must use the unprivileged app role (gatehouse_app)`,
    );
    this.name = 'UnsafeDatabaseRoleError';
  }
}

const DESCRIPTIONS: Record<UnsafeRoleReason, string> = {
  superuser: 'is or can become a superuser',
  bypassrls: 'is or can become a role with BYPASSRLS',
  owns_tables: 'owns tables in schema public (or can act as their owner)',
  owns_definer_functions: 'can act as the owner of the SECURITY DEFINER functions',
};

interface RoleFacts {
  role: string;
  superuser: boolean;
  bypassrls: boolean;
  owns_tables: boolean;
  owns_definer_functions: boolean;
}

/**
 * Checks `current_user`, including every role it is a member of (it could SET ROLE into them): no superuser,
 * no BYPASSRLS, no ownership of tables in `public` (owners pass FORCE'd policies only through RI checks, but
 * could ALTER or disable them), no ownership of the cross-tenant definer functions' role.
 */
export async function assertSafeAppRole(prisma: Pick<PrismaClient, '$queryRaw'>): Promise<void> {
  const rows = await prisma.$queryRaw<RoleFacts[]>`
    SELECT current_user::text AS role,
      EXISTS (SELECT 1 FROM pg_roles r WHERE r.rolsuper AND pg_has_role(current_user, r.oid, 'MEMBER')) AS superuser,
      EXISTS (SELECT 1 FROM pg_roles r WHERE r.rolbypassrls AND pg_has_role(current_user, r.oid, 'MEMBER')) AS bypassrls,
      EXISTS (
        SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm')
           AND pg_has_role(current_user, c.relowner, 'MEMBER')
      ) AS owns_tables,
      EXISTS (
        SELECT 1 FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
         WHERE n.nspname = 'public' AND p.prosecdef AND pg_has_role(current_user, p.proowner, 'MEMBER')
      ) AS owns_definer_functions`;
  const facts = rows[0];
  if (!facts) throw new Error('role check returned no row');
  const reasons: UnsafeRoleReason[] = ['superuser', 'bypassrls', 'owns_tables', 'owns_definer_functions'];
  const reason = reasons.find((r) => facts[r]);
  if (reason) throw new UnsafeDatabaseRoleError(facts.role, reason);
}
