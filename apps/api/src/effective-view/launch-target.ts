import { materializedDefinitionOf, type EffectiveEntry, type ResolvedEntry } from '@gatehouse/definitions';
import type { StdioLaunch } from '@gatehouse/activation';

/**
 * What admission judges, taken from the materialized definition (so the values are the ones a lease would
 * carry, secrets included). Only the URL and the header helper's argv, or the argv, cwd and env keys, are taken: headers and env never leave the
 * definition here. Neither value may be returned or logged; admission reports classes and origins only.
 */
export type LaunchTarget =
  | { readonly kind: 'http'; readonly url: string; readonly headersHelper: readonly string[] | null }
  | ({ readonly kind: 'stdio' } & StdioLaunch);

export function launchTargetOf(entry: ResolvedEntry): LaunchTarget {
  const materialized = materializedDefinitionOf(entry);
  // Every resolved entry @gatehouse/definitions hands out carries one: its absence is a bug, not an input.
  if (materialized === undefined)
    throw new Error(`resolved entry ${entry.name} carries no materialized definition`);
  const { transport } = materialized;
  if (transport.kind === 'http') {
    return { kind: 'http', url: transport.url.value, headersHelper: transport.headersHelper };
  }
  return {
    kind: 'stdio',
    argv: [transport.command.value, ...transport.args.map((arg) => arg.value)],
    cwd: transport.cwd?.value ?? null,
    envKeys: transport.env.map((variable) => variable.key),
  };
}

/** The transport an entry declares, where the view can tell (unresolved entries may still carry a projection). */
export function transportOf(entry: EffectiveEntry): 'stdio' | 'http' | null {
  const active = entry.status === 'disabled' ? entry.entry : entry;
  switch (active.status) {
    case 'resolved':
      return active.projection.transport.kind;
    case 'unresolved':
      return active.reason === 'unset_variable' || active.reason === 'invalid_value'
        ? active.projection.transport.kind
        : null;
    case 'blocked':
    case 'rejected':
      return null;
    default: {
      const unreachable: never = active;
      throw new Error(`unknown entry ${String(unreachable)}`);
    }
  }
}

/** The fingerprint of the definition the view would use (also for a disabled entry that would resolve). */
export function fingerprintOf(entry: EffectiveEntry): string | null {
  const active = entry.status === 'disabled' ? entry.entry : entry;
  return active.status === 'resolved' ? active.fingerprint : null;
}
