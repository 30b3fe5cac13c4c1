import { narrowChildEnvKeys } from '@gatehouse/activation';
import type { PoolCeiling } from '../auth/pool-config';
import type { ArgvPrefix, TenantHostPolicy } from './host-policy';
import { cidrFitsPool, commandFitsPool } from './host-policy-ceiling.guard';

/** What a lease from one pool may do for one tenant: the tenant's choices cut down to that pool's ceiling. */
export interface EffectiveHostPolicy {
  readonly stdioCommands: readonly ArgvPrefix[];
  readonly headerHelpers: readonly ArgvPrefix[];
  readonly privateCidrs: readonly string[];
  readonly traceContextOrigins: readonly string[];
  readonly fourEyes: boolean;
  readonly allowedRoots: readonly string[];
  /** The env names a stdio definition may set: the pool's list, narrowed by the tenant's when it wrote one. */
  readonly childEnvKeys: readonly string[];
  readonly runAs: PoolCeiling['runAs'];
  readonly egressDenylist: readonly string[];
  readonly allowInsecureLoopback: boolean;
}

/**
 * The intersection used at lease time. A tenant entry the asking pool does not allow is dropped (the policy was
 * checked against every open pool when written, so it may fit another pool); the operator-only fields come from
 * the ceiling alone. The tenant can narrow, never widen.
 */
export function effectiveHostPolicy(
  tenantPolicy: TenantHostPolicy,
  poolCeiling: PoolCeiling,
): EffectiveHostPolicy {
  return {
    stdioCommands: tenantPolicy.stdioCommands.filter((argv) =>
      commandFitsPool(argv, poolCeiling.stdio, poolCeiling),
    ),
    headerHelpers: tenantPolicy.headerHelpers.filter((argv) =>
      commandFitsPool(argv, poolCeiling.headerHelpers, poolCeiling),
    ),
    privateCidrs: tenantPolicy.privateCidrs.filter((cidr) => cidrFitsPool(cidr, poolCeiling)),
    traceContextOrigins: tenantPolicy.traceContextOrigins,
    fourEyes: tenantPolicy.fourEyes,
    allowedRoots: poolCeiling.allowedRoots,
    childEnvKeys: narrowChildEnvKeys(tenantPolicy.childEnvKeys, poolCeiling.childEnvKeys),
    runAs: poolCeiling.runAs,
    egressDenylist: poolCeiling.egressDenylist,
    allowInsecureLoopback: poolCeiling.allowInsecureLoopback,
  };
}
