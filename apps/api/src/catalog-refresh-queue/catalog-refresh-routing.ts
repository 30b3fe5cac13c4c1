import { checkHeaderHelperAuthority, checkStdioAuthority } from '@gatehouse/activation';
import type { LaunchTarget } from '../effective-view/launch-target';
import type { PoolCeiling } from '../auth/pool-config';
import { effectiveHostPolicy } from '../host-policy/effective-host-policy';
import type { TenantHostPolicy } from '../host-policy/host-policy';

/** A pool open to the tenant, as poolsOpenToTenant lists them (sorted by name). */
export interface OpenPool {
  readonly name: string;
  readonly ceiling: PoolCeiling;
}

/**
 * Why one pool will not carry the server: the stdio or header-helper authority's reason, as a lease would say,
 * and with `env_key_not_allowed` the env name refused (a name, never a value); else null.
 */
export interface PoolRefusal {
  readonly pool: string;
  readonly reason: string;
  readonly key: string | null;
}

/** `pool:reason`, or `pool:env_key_not_allowed:KEY` naming the env name: what logs, audit and problems carry. */
export function describePoolRefusal(refusal: PoolRefusal): string {
  return refusal.key === null
    ? `${refusal.pool}:${refusal.reason}`
    : `${refusal.pool}:${refusal.reason}:${refusal.key}`;
}

export type CatalogRefreshRoute =
  | { readonly ok: true; readonly pool: string }
  | {
      readonly ok: false;
      /** `no_pool_open`: the operator opened no pool to the tenant; `no_pool_allows`: every open pool refuses. */
      readonly reason: 'no_pool_open' | 'no_pool_allows';
      readonly refusals: readonly PoolRefusal[];
    };

/**
 * The pool whose queue a catalog refresh job goes to: the first open pool (by name, so repeated triggers pick the
 * same queue and collapse) whose authority, the tenant's HostPolicy cut down to that pool's ceiling, would lease
 * this launch: the same checks `leases.issue` runs for a stdio server or a header helper. A plain http server
 * fits any open pool; its destination is judged at lease time (URL admission needs DNS, and a refused
 * destination is the lease's typed refusal, the job's `refused` outcome).
 */
export function routeCatalogRefresh(
  launch: LaunchTarget,
  pools: readonly OpenPool[],
  tenantPolicy: TenantHostPolicy,
): CatalogRefreshRoute {
  if (pools.length === 0) return { ok: false, reason: 'no_pool_open', refusals: [] };
  const refusals: PoolRefusal[] = [];
  for (const pool of pools) {
    const refusal = refusalOn(launch, pool.ceiling, tenantPolicy);
    if (refusal === null) return { ok: true, pool: pool.name };
    refusals.push({ pool: pool.name, ...refusal });
  }
  return { ok: false, reason: 'no_pool_allows', refusals };
}

function refusalOn(
  launch: LaunchTarget,
  ceiling: PoolCeiling,
  tenantPolicy: TenantHostPolicy,
): { readonly reason: string; readonly key: string | null } | null {
  const effective = effectiveHostPolicy(tenantPolicy, ceiling);
  if (launch.kind === 'stdio') {
    const authority = checkStdioAuthority(launch, {
      stdioAllowed: ceiling.stdio,
      commands: effective.stdioCommands,
      ceiling: ceiling.commandCeiling,
      allowedRoots: effective.allowedRoots,
      envKeys: effective.childEnvKeys,
    });
    if (authority.ok) return null;
    return {
      reason: authority.reason,
      key: authority.reason === 'env_key_not_allowed' ? authority.key : null,
    };
  }
  if (launch.headersHelper === null) return null;
  const helper = checkHeaderHelperAuthority(launch.headersHelper, {
    helpersAllowed: ceiling.headerHelpers,
    commands: effective.headerHelpers,
    ceiling: ceiling.commandCeiling,
  });
  return helper.ok ? null : { reason: helper.reason, key: null };
}
