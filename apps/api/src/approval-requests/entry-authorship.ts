import { upsertEntryAuthors, type TenantTx } from '@gatehouse/db';
import { canonicalJson } from '../audit/audit-chain-encoding';

/** The authorship key of a variable: its holder (`tenant`, `workspace:<id>`, `user:<id>`) under `variable:`. */
export function variableOrigin(holder: string): string {
  return `variable:${holder}`;
}

function serversOf(document: unknown): Readonly<Record<string, unknown>> {
  if (typeof document !== 'object' || document === null) return {};
  const servers = (document as { mcpServers?: unknown }).mcpServers;
  return typeof servers === 'object' && servers !== null && !Array.isArray(servers)
    ? (servers as Record<string, unknown>)
    : {};
}

/**
 * The server names whose entry a write adds or changes (compared as canonical JSON, so key order is no change).
 * A removed name is not listed: what wins instead comes from another source, whose own authors count.
 */
export function changedServerNames(before: unknown, after: unknown): string[] {
  const old = serversOf(before);
  const now = serversOf(after);
  return Object.keys(now).filter(
    (name) => !Object.hasOwn(old, name) || canonicalJson(old[name]) !== canonicalJson(now[name]),
  );
}

/** Records (or moves forward) the person's latest change of these entries, in the write's own transaction. */
export async function recordEntryAuthors(
  tx: TenantTx,
  args: { tenantId: string; origin: string; entryNames: readonly string[]; userId: string | null; at?: Date },
): Promise<void> {
  const { userId } = args;
  if (userId === null || args.entryNames.length === 0) return;
  await upsertEntryAuthors(tx, {
    tenantId: args.tenantId,
    origin: args.origin,
    entryNames: args.entryNames,
    userId,
    changedAt: args.at ?? new Date(),
  });
}
