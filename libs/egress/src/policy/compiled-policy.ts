// An EgressPolicy with its CIDRs and host names parsed once. The app checks its config at boot with
// checkEgressPolicy; compiling a policy that fails the check is therefore a bug and throws.
import { parseCidr, type CidrRange } from './cidr.js';
import type { EgressPolicy } from './egress-policy.js';
import { normalizeHostname } from './host-name.js';

export interface CompiledEgressPolicy {
  readonly allowInsecureLoopback: boolean;
  readonly deniedRanges: readonly CidrRange[];
  readonly deniedHostnames: ReadonlySet<string>;
  /** `.example.internal` for a `*.example.internal` entry. */
  readonly deniedSuffixes: readonly string[];
  readonly operatorAllowedPrivate: readonly CidrRange[];
  readonly tenantOptedInPrivate: readonly CidrRange[];
}

export type EgressPolicyCheck =
  { readonly ok: true } | { readonly ok: false; readonly problems: readonly string[] };

interface Compilation {
  readonly compiled: CompiledEgressPolicy;
  readonly problems: readonly string[];
}

function compileRanges(field: string, entries: readonly string[], problems: string[]): CidrRange[] {
  const ranges: CidrRange[] = [];
  for (const entry of entries) {
    const range = parseCidr(entry);
    if (range === null) problems.push(`${field}: not a CIDR: ${entry}`);
    else ranges.push(range);
  }
  return ranges;
}

function compile(policy: EgressPolicy): Compilation {
  const problems: string[] = [];
  const deniedHostnames = new Set<string>();
  const deniedSuffixes: string[] = [];
  for (const entry of policy.operatorDenylist.hostnames) {
    const wildcard = entry.startsWith('*.');
    const name = normalizeHostname(wildcard ? entry.slice(2) : entry);
    if (name === null) problems.push(`operatorDenylist.hostnames: not a host name: ${entry}`);
    else if (wildcard) deniedSuffixes.push(`.${name}`);
    else deniedHostnames.add(name);
  }
  const compiled: CompiledEgressPolicy = {
    allowInsecureLoopback: policy.allowInsecureLoopback,
    deniedRanges: compileRanges('operatorDenylist.cidrs', policy.operatorDenylist.cidrs, problems),
    deniedHostnames,
    deniedSuffixes,
    operatorAllowedPrivate: compileRanges(
      'operatorAllowedPrivateRanges',
      policy.operatorAllowedPrivateRanges,
      problems,
    ),
    tenantOptedInPrivate: compileRanges(
      'tenantOptedInPrivateRanges',
      policy.tenantOptedInPrivateRanges,
      problems,
    ),
  };
  return { compiled, problems };
}

/** For config parsing at boot and HostPolicy writes: every malformed entry, named. */
export function checkEgressPolicy(policy: EgressPolicy): EgressPolicyCheck {
  const { problems } = compile(policy);
  return problems.length === 0 ? { ok: true } : { ok: false, problems };
}

// Policies are long-lived values (one per pool and tenant), so parsing once per object pays off.
const cache = new WeakMap<EgressPolicy, CompiledEgressPolicy>();

export function compileEgressPolicy(policy: EgressPolicy): CompiledEgressPolicy {
  const cached = cache.get(policy);
  if (cached !== undefined) return cached;
  const { compiled, problems } = compile(policy);
  if (problems.length > 0) throw new Error(`egress policy is invalid: ${problems.join('; ')}`);
  cache.set(policy, compiled);
  return compiled;
}

export function isDeniedHostname(policy: CompiledEgressPolicy, name: string): boolean {
  return policy.deniedHostnames.has(name) || policy.deniedSuffixes.some((suffix) => name.endsWith(suffix));
}
