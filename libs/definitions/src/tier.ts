/**
 * The five definition tiers, highest precedence first. A name resolves to one whole entry from the highest tier
 * that defines it. Plugins rank last: a plugin is the least-trusted source and plugin server names are not
 * namespaced, so ranking it above user would let an installed plugin silently replace a server the user
 * configured under the same name.
 */
export const TIERS = ['managed', 'local', 'project', 'user', 'plugin'] as const;
export type Tier = (typeof TIERS)[number];

/** The tiers the workspace-alone view reads: no user's own sources take part in it. */
export const WORKSPACE_VIEW_TIERS: readonly Tier[] = ['managed', 'project', 'plugin'];

/** Where an entry came from: the tier and the origin inside it (`managed:org-policy`, `plugin:<plugin>`). */
export interface SourceRef {
  readonly tier: Tier;
  readonly origin: string;
}

const RANK: Readonly<Record<Tier, number>> = { managed: 0, local: 1, project: 2, user: 3, plugin: 4 };

/** Lower is stronger. */
export function tierRank(tier: Tier): number {
  return RANK[tier];
}

/** Total order on sources: tier precedence, then origin (code-unit order), so results never depend on input order. */
export function compareSources(a: SourceRef, b: SourceRef): number {
  const byTier = RANK[a.tier] - RANK[b.tier];
  if (byTier !== 0) return byTier;
  return a.origin < b.origin ? -1 : a.origin > b.origin ? 1 : 0;
}

export function isTier(value: unknown): value is Tier {
  return typeof value === 'string' && Object.hasOwn(RANK, value);
}
