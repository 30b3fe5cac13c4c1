import type { TenantTx } from '../tenancy/prisma-client';

/**
 * Records (or moves forward) a person's latest change of these entries of one definition source: one statement
 * whatever the number of entries (a document may change hundreds at once).
 */
export async function upsertEntryAuthors(
  tx: TenantTx,
  args: {
    readonly tenantId: string;
    readonly origin: string;
    readonly entryNames: readonly string[];
    readonly userId: string;
    readonly changedAt: Date;
  },
): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO definition_entry_authors (tenant_id, origin, entry_name, user_id, changed_at)
    SELECT ${args.tenantId}::uuid, ${args.origin}, entry_name, ${args.userId}::uuid, ${args.changedAt}
      FROM unnest(${[...new Set(args.entryNames)]}::text[]) AS entry_name
    ON CONFLICT (tenant_id, origin, entry_name, user_id) DO UPDATE SET changed_at = EXCLUDED.changed_at`;
}
