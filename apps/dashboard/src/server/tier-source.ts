import type { DefinitionSourceSummaryView, DefinitionTier } from '@/views/definition-views';

/** The stored source a tier's editor writes, among those the person may read. */
export function sourceFor(
  sources: readonly DefinitionSourceSummaryView[],
  tier: DefinitionTier,
  workspaceId: string,
  userId: string,
  name: string,
): DefinitionSourceSummaryView | undefined {
  const origin = {
    managed: `managed:${name}`,
    plugin: `plugin:${name}`,
    project: `project:${workspaceId}`,
    local: `local:${workspaceId}:${userId}`,
    user: `user:${userId}`,
  }[tier];
  return sources.find((source) => source.origin === origin);
}
