import { canonicalJson } from '../audit/audit-chain-encoding';

export type EntryChangeKind = 'added' | 'changed' | 'removed' | 'unchanged';

export interface EntryChange {
  readonly name: string;
  readonly change: EntryChangeKind;
}

function serversOf(document: unknown): Readonly<Record<string, unknown>> {
  if (typeof document !== 'object' || document === null) return {};
  const servers = (document as { mcpServers?: unknown }).mcpServers;
  return typeof servers === 'object' && servers !== null && !Array.isArray(servers)
    ? (servers as Record<string, unknown>)
    : {};
}

/** Two documents are the same when they are the same JSON up to key order (a re-indented file is no change). */
export function sameDocument(before: unknown, after: unknown): boolean {
  return canonicalJson(before) === canonicalJson(after);
}

/**
 * What a write does to each entry, compared as canonical JSON: the entries of `after` in their order (added,
 * changed or unchanged), then those only `before` had (removed).
 */
export function entryChangesBetween(before: unknown, after: unknown): EntryChange[] {
  const old = serversOf(before);
  const now = serversOf(after);
  const changes: EntryChange[] = Object.keys(now).map((name) => ({
    name,
    change: !Object.hasOwn(old, name)
      ? 'added'
      : canonicalJson(old[name]) === canonicalJson(now[name])
        ? 'unchanged'
        : 'changed',
  }));
  for (const name of Object.keys(old))
    if (!Object.hasOwn(now, name)) changes.push({ name, change: 'removed' });
  return changes;
}
