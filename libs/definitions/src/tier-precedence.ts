import type { DecodedEntry } from './definition-decoder';
import { compareSources } from './tier';

/**
 * How one name resolves among the entries that define it:
 * - `winner`: the single entry of the highest tier that defines the name. Whole entries, never field-merged: a
 *   malformed or rejected winner still takes the name (and shadows every lower entry) rather than handing it down.
 * - `blocked`: no readable managed origin defines the name and some managed origin is unreadable. A name the
 *   managed policy would have defined is indistinguishable from one it never mentioned, so every name that would
 *   resolve from a LOWER tier fails closed. A name a readable managed origin defines is unaffected.
 * - `ambiguous`: two origins of the winning tier (two managed policies, two plugins) define the name. Neither
 *   outranks the other and picking by name order would be arbitrary, so the name fails closed (unresolved) and
 *   still shadows the lower tiers (docs/decisions/0015-definition-precedence.md).
 *
 * The decision depends only on the set of entries, never on their order.
 */
export type PrecedenceDecision =
  | { readonly kind: 'winner'; readonly winner: DecodedEntry; readonly shadowed: readonly DecodedEntry[] }
  | {
      readonly kind: 'ambiguous';
      readonly contenders: readonly DecodedEntry[];
      readonly shadowed: readonly DecodedEntry[];
    }
  | {
      readonly kind: 'blocked';
      /** The entries that would have won (more than one when that tier is ambiguous too). */
      readonly wouldWin: readonly DecodedEntry[];
      readonly shadowed: readonly DecodedEntry[];
      readonly unreadableManagedOrigins: readonly string[];
    };

/**
 * @param candidates every decoded entry of ONE name, from every readable source in the view (non-empty).
 * @param unreadableManagedOrigins origins of managed sources that could not be read at all.
 */
export function decidePrecedence(
  candidates: readonly DecodedEntry[],
  unreadableManagedOrigins: readonly string[],
): PrecedenceDecision {
  if (candidates.length === 0) throw new Error('decidePrecedence needs at least one candidate');
  const sorted = [...candidates].sort((a, b) => compareSources(a.source, b.source));
  const topTier = (sorted[0] as DecodedEntry).source.tier;
  let split = 1;
  while (split < sorted.length && (sorted[split] as DecodedEntry).source.tier === topTier) split += 1;
  const top = sorted.slice(0, split);
  const shadowed = sorted.slice(split);
  if (topTier !== 'managed' && unreadableManagedOrigins.length > 0) {
    return {
      kind: 'blocked',
      wouldWin: top,
      shadowed,
      unreadableManagedOrigins: [...unreadableManagedOrigins].sort(),
    };
  }
  if (top.length > 1) return { kind: 'ambiguous', contenders: top, shadowed };
  return { kind: 'winner', winner: top[0] as DecodedEntry, shadowed };
}
