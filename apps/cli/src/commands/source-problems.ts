import { UNREADABLE_REASONS, type SourceProblemReason } from '@gatehouse/definitions';

/**
 * The effective view's source problems as stderr lines for `gatehouse servers`. Without them a source that could
 * not be read (a document that does not decode, or one sealed under a key this API does not hold) made the table
 * silently shorter, or empty. Sources outside the view are left out: that is the view working, not a problem.
 * Problems come as loose JSON (the contract's `problems: json[]`), so each one is read field by field.
 */
export function sourceProblemLines(problems: readonly unknown[]): string[] {
  const lines: string[] = [];
  for (const problem of problems) {
    if (typeof problem !== 'object' || problem === null) continue;
    const { source, reason, path } = problem as { source?: unknown; reason?: unknown; path?: unknown };
    if (typeof reason !== 'string' || reason === 'outside_view') continue;
    const origin = (source as { origin?: unknown } | undefined)?.origin;
    const where = typeof origin === 'string' ? origin : 'a source';
    const at = Array.isArray(path) && path.length > 0 ? ` at ${path.map(String).join('.')}` : '';
    const unread = UNREADABLE_REASONS.has(reason as SourceProblemReason) ? ' (its servers are not listed)' : '';
    lines.push(`gatehouse: servers: ${where}: ${reason}${at}${unread}`);
  }
  return lines;
}
