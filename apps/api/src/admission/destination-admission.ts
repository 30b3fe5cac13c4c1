import {
  admitUrl,
  checkEgressPolicy,
  isCidr,
  type EgressPolicy,
  type ResolveResult,
  type Resolver,
} from '@gatehouse/egress';
import type { PoolCeiling } from '../auth/pool-config';
import { effectiveHostPolicy } from '../host-policy/effective-host-policy';
import type { TenantHostPolicy } from '../host-policy/host-policy';
import type { DestinationRefusalClass } from './admission-log';

/** The URL admission of libs/egress for one pool and one tenant: the operator's fields from the pool's ceiling. */
export function egressPolicyFor(tenantPolicy: TenantHostPolicy, ceiling: PoolCeiling): EgressPolicy {
  const effective = effectiveHostPolicy(tenantPolicy, ceiling);
  return {
    allowInsecureLoopback: effective.allowInsecureLoopback,
    operatorDenylist: {
      cidrs: effective.egressDenylist.filter((entry) => isCidr(entry)),
      hostnames: effective.egressDenylist.filter((entry) => !isCidr(entry)),
    },
    operatorAllowedPrivateRanges: ceiling.privateRangesTenantsMayOptInto,
    // Already cut down to the ranges this pool lets tenants opt into.
    tenantOptedInPrivateRanges: effective.privateCidrs,
  };
}

export type PoolDestinationResult =
  | { readonly pool: string; readonly ok: true }
  | {
      readonly pool: string;
      readonly ok: false;
      readonly reason: DestinationRefusalClass;
      readonly origin: string | null;
    };

/**
 * Runs URL admission once per pool open to the tenant. The host is looked up once for the whole check (the
 * pools judge the same answer against their own policies); a lease resolves again at connection time anyway.
 */
export async function admitOnPools(
  url: string,
  tenantPolicy: TenantHostPolicy,
  pools: readonly { readonly name: string; readonly ceiling: PoolCeiling }[],
  resolver: Resolver,
): Promise<PoolDestinationResult[]> {
  const lookups = onceEach(resolver);
  const results: PoolDestinationResult[] = [];
  for (const { name, ceiling } of pools) {
    const policy = egressPolicyFor(tenantPolicy, ceiling);
    // WORKER_POOLS only checks a denylist entry's length; one libs/egress cannot read closes this pool.
    if (!checkEgressPolicy(policy).ok) {
      results.push({ pool: name, ok: false, reason: 'operator_policy_invalid', origin: null });
      continue;
    }
    const admission = await admitUrl(url, policy, lookups);
    results.push(
      admission.ok
        ? { pool: name, ok: true }
        : { pool: name, ok: false, reason: admission.reason, origin: admission.origin },
    );
  }
  return results;
}

function onceEach(resolver: Resolver): Resolver {
  const answers = new Map<string, Promise<ResolveResult>>();
  return {
    resolve(hostname) {
      let answer = answers.get(hostname);
      if (answer === undefined) {
        answer = resolver.resolve(hostname);
        answers.set(hostname, answer);
      }
      return answer;
    },
  };
}
