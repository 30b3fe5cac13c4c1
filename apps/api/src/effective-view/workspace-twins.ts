import type { EffectiveEntry, ResolveResult } from '@gatehouse/definitions';
import type { DefinitionSnapshot } from './definition-snapshot';
import { resolveView } from './resolve-and-decide';

const NONE: ReadonlyMap<string, EffectiveEntry> = new Map();

function readsUserVariables(entry: EffectiveEntry): boolean {
  const active = entry.status === 'disabled' ? entry.entry : entry;
  return active.status === 'resolved' && active.perUser;
}

/**
 * In a user's view, the entries the workspace alone resolves, by name: what a per-user entry is compared with to
 * know whether the user's own variables change anything (activation-inputs resolvesLikeWorkspace). Resolved only
 * when some entry of the view is per user; the workspace's view, or a view without one, needs none.
 */
export function workspaceTwinsOf(
  snapshot: DefinitionSnapshot,
  workspaceId: string,
  userId: string | null,
  result: ResolveResult,
): ReadonlyMap<string, EffectiveEntry> {
  if (userId === null || !result.entries.some(readsUserVariables)) return NONE;
  const alone = resolveView(snapshot, workspaceId, null);
  return new Map(alone.entries.map((entry) => [entry.name, entry]));
}
