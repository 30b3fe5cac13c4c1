import { DEFINITION_TIERS, listDefinitionSources, whoAmI } from '@gatehouse/commands';
import type { CommandClient } from '../api-client/command-client';
import { oneOf, required } from '../cli-args';
import { usageError } from '../cli-io';

export type Tier = (typeof DEFINITION_TIERS)[number];

/** Which source `import` writes, as definitions.sources.put/import/preview take it. */
export interface SourceTarget {
  readonly tier: Tier;
  readonly name?: string;
  readonly workspaceId?: string;
}

/** The source target from --tier, --name and --workspace: what each tier is named by (decision 0085). */
export function sourceTargetOf(values: { tier?: string; name?: string; workspace?: string }): SourceTarget {
  const tier = oneOf(values.tier, 'tier', DEFINITION_TIERS);
  switch (tier) {
    case 'managed':
    case 'plugin':
      return { tier, name: required(values.name, 'name') };
    case 'project':
    case 'local':
      if (values.name !== undefined)
        throw usageError(`--name is for the managed and plugin tiers, not ${tier}`);
      return { tier, workspaceId: required(values.workspace, 'workspace') };
    case 'user':
      if (values.name !== undefined) throw usageError('--name is for the managed and plugin tiers, not user');
      return { tier };
  }
}

/**
 * The stored version of the target source, or undefined when it does not exist yet: a write names the version it
 * replaces (optimistic concurrency), so an import over a source someone changed meanwhile is refused (409).
 */
export async function currentVersionOf(
  client: CommandClient,
  target: SourceTarget,
  workspaceId: string,
): Promise<number | undefined> {
  const needsUser = target.tier === 'user' || target.tier === 'local';
  const userId = needsUser ? (await client.call(whoAmI, {})).userId : null;
  const origin =
    target.tier === 'managed' || target.tier === 'plugin'
      ? `${target.tier}:${target.name ?? ''}`
      : target.tier === 'project'
        ? `project:${target.workspaceId ?? ''}`
        : target.tier === 'local'
          ? `local:${target.workspaceId ?? ''}:${userId ?? ''}`
          : `user:${userId ?? ''}`;
  const { items } = await client.call(listDefinitionSources, { workspaceId });
  return items.find((source) => source.tier === target.tier && source.origin === origin)?.version;
}
