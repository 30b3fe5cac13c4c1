import type { CommandOutput, getEffectiveDefinitions } from '@gatehouse/commands';
import type { ActiveEntry, EffectiveEntry, ResolveResult } from '@gatehouse/definitions';
import { plain } from './definition-source-view';

export type EffectiveDefinitionsOut = CommandOutput<typeof getEffectiveDefinitions>;
type EntryOut = EffectiveDefinitionsOut['entries'][number];
/** What the view decides about an entry beside describing it (activation, the overlay, admission). */
export type EntryDecisions = Pick<EntryOut, 'activation' | 'beneathOverlay' | 'overlay' | 'admission'>;
type EntryDescription = Omit<EntryOut, keyof EntryDecisions>;
export type ActivationOut = EntryOut['activation'];

function describeActive(entry: ActiveEntry): Omit<EntryDescription, 'name' | 'status' | 'reason'> {
  const base = {
    source: { ...entry.source },
    shadowed: entry.shadowed.map((s) => ({ source: { ...s.source }, state: s.state })),
    fingerprint: null,
    identity: null,
    projection: null,
    perUser: null,
    problems: [],
  };
  switch (entry.status) {
    case 'resolved':
      return {
        ...base,
        fingerprint: entry.fingerprint,
        identity: plain(entry.identity),
        projection: plain(entry.projection),
        perUser: entry.perUser,
      };
    case 'unresolved':
      switch (entry.reason) {
        case 'malformed':
          return { ...base, problems: entry.problems.map((p) => plain(p)) };
        case 'unset_variable':
          return {
            ...base,
            projection: plain(entry.projection),
            perUser: entry.perUser,
            problems: entry.unset.map((u) =>
              plain({ reason: 'unset_variable', variable: u.variable, path: u.path }),
            ),
          };
        case 'invalid_value':
          return {
            ...base,
            projection: plain(entry.projection),
            problems: entry.valueProblems.map((p) => plain(p)),
          };
        case 'ambiguous_within_tier':
          return {
            ...base,
            problems: [plain({ reason: 'ambiguous_within_tier', contenders: entry.contenders })],
          };
        default: {
          const unreachable: never = entry;
          throw new Error(`unknown unresolved entry ${String(unreachable)}`);
        }
      }
    case 'blocked':
      return {
        ...base,
        problems: [plain({ reason: entry.reason, unreadableOrigins: entry.unreadableOrigins })],
      };
    case 'rejected':
      return { ...base, problems: [plain({ reason: entry.reason, transport: entry.transport })] };
    default: {
      const unreachable: never = entry;
      throw new Error(`unknown entry ${String(unreachable)}`);
    }
  }
}

function describe(entry: EffectiveEntry): EntryDescription {
  if (entry.status === 'disabled') {
    const inner = describeActive(entry.entry);
    const innerReason = entry.entry.status === 'resolved' ? null : entry.entry.reason;
    return {
      name: entry.name,
      status: 'disabled',
      reason: entry.reason,
      ...inner,
      problems: [
        plain({ reason: 'disabled_entry', status: entry.entry.status, entryReason: innerReason }),
        ...inner.problems,
      ],
    };
  }
  return {
    name: entry.name,
    status: entry.status,
    reason: entry.status === 'resolved' ? null : entry.reason,
    ...describeActive(entry),
  };
}

/** @param decisions one per entry of `result.entries`, in the same order. */
export function toEffectiveView(
  workspaceId: string,
  result: ResolveResult,
  decisions: readonly EntryDecisions[],
): EffectiveDefinitionsOut {
  if (decisions.length !== result.entries.length) throw new Error('one decision per entry is required');
  return {
    workspaceId,
    view: result.view.kind,
    entries: result.entries.map((entry, index) => ({ ...describe(entry), ...decisions[index]! })),
    problems: result.problems.map((p) => plain(p)),
    overlayProblems: result.overlayProblems.map((p) => plain(p)),
  };
}
