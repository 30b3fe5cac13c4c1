import type { TenantTx } from './prisma-client';

/**
 * Locks the current tenant's owner memberships until the transaction ends and returns their user ids. Every
 * change that can add or remove an owner takes this lock first, so two admins demoting the last two owners at
 * the same moment run one after the other and the second sees one owner left (FOR UPDATE re-reads rows that
 * changed while it waited).
 */
export async function lockOwnerMemberships(tx: TenantTx): Promise<string[]> {
  const rows = await tx.$queryRaw<{ user_id: string }[]>`
    SELECT user_id::text AS user_id
      FROM memberships
     WHERE tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid
       AND role = 'owner'
       FOR UPDATE`;
  return rows.map((row) => row.user_id);
}
