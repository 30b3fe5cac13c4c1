import { compareSources, type SourceRef } from '@gatehouse/definitions';

// What the workspace's effective view would show for each name an import writes, from the preview's entries and the
// effective view now, by the precedence libs/definitions resolves with (decision 0015): the highest tier wins a
// name whole; two origins of the winning tier make it ambiguous. The API's preview answers what the source would
// store; this says whether each entry would then be the one in effect, and over what.

export type EffectiveOutcome = 'takes_effect' | 'shadowed' | 'ambiguous' | 'removed';

export interface EffectiveAfter {
  readonly name: string;
  readonly outcome: EffectiveOutcome;
  /** The source it wins over, loses to or ties with (`managed:org-policy`); null when none defines the name. */
  readonly other: string | null;
}

export function effectiveAfterImport(
  imported: SourceRef,
  previewEntries: readonly { readonly name: string; readonly change: string }[],
  effectiveNow: readonly { readonly name: string; readonly source: SourceRef }[],
): EffectiveAfter[] {
  const winners = new Map(effectiveNow.map((entry) => [entry.name, entry.source]));
  return previewEntries.map(({ name, change }) => {
    const current = winners.get(name);
    const sameSource = current !== undefined && current.origin === imported.origin;
    if (change === 'removed') return { name, outcome: 'removed', other: null };
    if (current === undefined || sameSource) return { name, outcome: 'takes_effect', other: null };
    const order = compareSources(imported, current);
    if (current.tier === imported.tier) return { name, outcome: 'ambiguous', other: current.origin };
    return order < 0
      ? { name, outcome: 'takes_effect', other: current.origin }
      : { name, outcome: 'shadowed', other: current.origin };
  });
}
