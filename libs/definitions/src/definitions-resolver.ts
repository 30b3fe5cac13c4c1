import type { PathSegment } from './decode-problem';
import type { DecodedEntry } from './definition-decoder';
import { fingerprintDefinition, type FingerprintKey } from './definition-fingerprint';
import { disableReasons, overlayApplies, type DisableOverlay, type OverlayProblem } from './disable-overlay';
import { decodeDefinitionDocument, type DocumentProblem } from './document-decoder';
import type {
  ActiveEntry,
  EffectiveEntry,
  ShadowedEntry,
  SourceProblem,
  UnresolvedEntry,
  ValueProblem,
} from './effective-entry';
import { createResolvedEntry } from './materialized-access';
import { projectDefinition } from './redacted-projection';
import { securityIdentityOf } from './security-identity';
import { decidePrecedence } from './tier-precedence';
import { compareSources, isTier, WORKSPACE_VIEW_TIERS, type SourceRef, type Tier } from './tier';
import { materializeDefinition, type VariableValues } from './variable-materializer';

/** One stored definition source, as the host read it. */
export type DefinitionSourceInput =
  | {
      readonly tier: Tier;
      readonly origin: string;
      readonly readability: 'readable';
      readonly document: string;
    }
  | { readonly tier: Tier; readonly origin: string; readonly readability: 'unreadable' };

/** For the workspace alone (managed, project, plugin; workspace overlays; tenant and workspace variables), or
 * for one principal (every tier of theirs, their overlays and variables too). */
export type ResolveView =
  { readonly kind: 'workspace' } | { readonly kind: 'principal'; readonly userId: string };

export interface ResolveInput {
  readonly sources: readonly DefinitionSourceInput[];
  readonly variables: VariableValues;
  readonly overlays: readonly DisableOverlay[];
  readonly view: ResolveView;
  /** The tenant's fingerprint key (the host derives it from the operator key ring): fingerprints are keyed. */
  readonly fingerprintKey: FingerprintKey;
}

export interface ResolveResult {
  readonly view: ResolveView;
  /** One per name, sorted by name. */
  readonly entries: readonly EffectiveEntry[];
  /** Source-level problems, sorted by source. */
  readonly problems: readonly SourceProblem[];
  /** Overlays naming a server the view does not list (refused: they disable nothing). */
  readonly overlayProblems: readonly OverlayProblem[];
}

function sourceOf(input: DefinitionSourceInput): SourceRef {
  return { tier: input.tier, origin: input.origin };
}

/**
 * Whether a source belongs to the view. Origins (docs/architecture/definitions.md): `user:<user>` and
 * `local:<workspace>:<user>` belong to one user, whose principal view alone reads them.
 */
function inView(source: SourceRef, view: ResolveView): boolean {
  if (view.kind === 'workspace') return WORKSPACE_VIEW_TIERS.includes(source.tier);
  if (source.tier === 'user') return source.origin === `user:${view.userId}`;
  if (source.tier === 'local') return source.origin.endsWith(`:${view.userId}`);
  return true;
}

function checkSources(sources: readonly DefinitionSourceInput[]): void {
  const seen = new Set<string>();
  for (const source of sources) {
    // A malformed source list is the host's bug, not a definition problem: fail loudly.
    if (!isTier(source.tier)) throw new TypeError('definition source has an unknown tier');
    if (!source.origin.startsWith(`${source.tier}:`))
      throw new TypeError('definition source origin must start with its tier');
    const key = `${source.tier}\u0000${source.origin}`;
    if (seen.has(key)) throw new TypeError('definition source listed twice');
    seen.add(key);
  }
}

function shadowedOf(entries: readonly DecodedEntry[]): ShadowedEntry[] {
  return entries.map((entry) => ({ source: entry.source, state: entry.kind }));
}

function isUserTier(tier: Tier): boolean {
  return tier === 'user' || tier === 'local';
}

/** Materializes, checks and describes the winning entry of a name. */
function resolveWinner(
  winner: DecodedEntry,
  shadowed: ShadowedEntry[],
  variables: VariableValues,
  fingerprintKey: FingerprintKey,
): ActiveEntry {
  const base = { name: winner.name, source: winner.source, shadowed };
  switch (winner.kind) {
    case 'malformed':
      return { ...base, status: 'unresolved', reason: 'malformed', problems: winner.problems };
    case 'rejected':
      return { ...base, status: 'rejected', reason: 'unsupported_transport', transport: winner.transport };
    case 'valid':
      break;
    default: {
      const unreachable: never = winner;
      throw new Error(`unknown decoded entry ${String(unreachable)}`);
    }
  }
  const materialization = materializeDefinition(winner.definition, variables);
  const projection = projectDefinition(materialization.definition);
  const perUser = isUserTier(winner.source.tier) || materialization.uses.some((use) => use.from === 'user');
  if (materialization.unset.length > 0) {
    return {
      ...base,
      status: 'unresolved',
      reason: 'unset_variable',
      unset: materialization.unset,
      projection,
      perUser,
    };
  }
  const valueProblems: ValueProblem[] = [...materialization.problems];
  const identity = securityIdentityOf(materialization.definition, winner.source, projection);
  if (!identity.ok) valueProblems.push({ reason: identity.reason, path: ['url'] as PathSegment[] });
  if (valueProblems.length > 0 || !identity.ok) {
    return { ...base, status: 'unresolved', reason: 'invalid_value', valueProblems, projection };
  }
  return createResolvedEntry(
    {
      name: winner.name,
      source: winner.source,
      shadowed,
      status: 'resolved',
      fingerprint: fingerprintDefinition(materialization.definition, fingerprintKey),
      identity: identity.identity,
      projection,
      perUser,
      variables: materialization.uses,
    },
    materialization.definition,
  );
}

function resolveName(
  candidates: readonly DecodedEntry[],
  unreadableManaged: readonly string[],
  variables: VariableValues,
  fingerprintKey: FingerprintKey,
): ActiveEntry {
  const decision = decidePrecedence(candidates, unreadableManaged);
  switch (decision.kind) {
    case 'winner':
      return resolveWinner(decision.winner, shadowedOf(decision.shadowed), variables, fingerprintKey);
    case 'ambiguous': {
      const first = decision.contenders[0] as DecodedEntry;
      const entry: UnresolvedEntry = {
        name: first.name,
        source: first.source,
        shadowed: shadowedOf(decision.shadowed),
        status: 'unresolved',
        reason: 'ambiguous_within_tier',
        contenders: decision.contenders.map((c) => c.source),
      };
      return entry;
    }
    case 'blocked': {
      const first = decision.wouldWin[0] as DecodedEntry;
      return {
        name: first.name,
        source: first.source,
        shadowed: shadowedOf([...decision.wouldWin.slice(1), ...decision.shadowed]),
        status: 'blocked',
        reason: 'managed_source_unreadable',
        unreadableOrigins: decision.unreadableManagedOrigins,
      };
    }
    default: {
      const unreachable: never = decision;
      throw new Error(`unknown precedence decision ${String(unreachable)}`);
    }
  }
}

/**
 * Resolves the effective server definitions of one view: decodes every source in the view (each entry alone),
 * applies precedence (managed > local > project > user > plugin, whole entries, failing closed on the managed
 * tier), materializes each winner's variables, and describes it (fingerprint, security identity, redacted
 * projection), then applies the view's disable overlays. Pure: the host reads sources, variables and overlays
 * and passes them in. The result never holds a secret value (see {@link materializedDefinitionOf}).
 */
export function resolveDefinitions(input: ResolveInput): ResolveResult {
  checkSources(input.sources);
  const view = input.view;
  const variables: VariableValues =
    view.kind === 'workspace'
      ? { tenant: input.variables.tenant, workspace: input.variables.workspace }
      : { tenant: input.variables.tenant, workspace: input.variables.workspace, user: input.variables.user };

  const sources = [...input.sources].sort((a, b) => compareSources(a, b));
  const problems: SourceProblem[] = [];
  const unreadableManaged: string[] = [];
  const byName = new Map<string, DecodedEntry[]>();
  const report = (source: SourceRef, problem: DocumentProblem, severity: SourceProblem['severity']) =>
    problems.push({ source, reason: problem.reason, path: problem.path, severity });

  for (const input of sources) {
    const source = sourceOf(input);
    if (!inView(source, view)) {
      report(source, { reason: 'outside_view', path: [] }, 'informational');
      continue;
    }
    const decoded =
      input.readability === 'readable'
        ? decodeDefinitionDocument(input.document, source)
        : ({ readable: false, problem: { reason: 'storage_unreadable', path: [] } } as const);
    if (!decoded.readable) {
      const blocking = source.tier === 'managed';
      if (blocking) unreadableManaged.push(source.origin);
      report(source, decoded.problem, blocking ? 'blocking' : 'informational');
      continue;
    }
    for (const problem of decoded.problems) report(source, problem, 'informational');
    for (const entry of decoded.entries) {
      const list = byName.get(entry.name);
      if (list) list.push(entry);
      else byName.set(entry.name, [entry]);
    }
  }

  const applicable = input.overlays.filter((overlay) => overlayApplies(overlay, view));
  const reasons = disableReasons(applicable);
  const names = [...byName.keys()].sort();
  const entries: EffectiveEntry[] = names.map((name) => {
    const active = resolveName(
      byName.get(name) as DecodedEntry[],
      unreadableManaged,
      variables,
      input.fingerprintKey,
    );
    const disabled = reasons.get(name);
    return disabled ? { name, status: 'disabled', reason: disabled, entry: active } : active;
  });
  const overlayProblems: OverlayProblem[] = applicable
    .filter((overlay) => !byName.has(overlay.serverName))
    .map((overlay) => ({ reason: 'unknown_server', serverName: overlay.serverName, scope: overlay.scope }));
  return { view, entries, problems, overlayProblems };
}
