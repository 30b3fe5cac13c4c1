import { checkHeaderHelperAuthority, checkStdioAuthority, type StdioLaunch } from '@gatehouse/activation';
import type { Resolver } from '@gatehouse/egress';
import type { PoolCeiling } from '../auth/pool-config';
import { effectiveHostPolicy } from '../host-policy/effective-host-policy';
import type { TenantHostPolicy } from '../host-policy/host-policy';
import { admitOnPools, type PoolDestinationResult } from './destination-admission';
import type { LaunchTarget } from '../effective-view/launch-target';

export type OpenPool = { readonly name: string; readonly ceiling: PoolCeiling };

/** One pool's answer to a stdio or header-helper launch (`key`: the env name refused, with env_key_not_allowed). */
export type PoolAuthority =
  | { readonly pool: string; readonly result: 'allowed'; readonly reason: null; readonly key: null }
  | {
      readonly pool: string;
      readonly result: 'refused';
      readonly reason: string;
      readonly key: string | null;
    };

/** Everything a launch target is judged against: the tenant's host policy, the pools open to it, DNS. */
export interface LaunchGround {
  readonly tenantPolicy: TenantHostPolicy;
  readonly pools: readonly OpenPool[];
  readonly resolver: Resolver;
}

/** What admission says about one launch target on every pool open to the tenant. */
export interface LaunchJudgement {
  readonly destination: 'admitted' | 'destination_refused' | 'not_applicable';
  /** Each pool's URL admission (http only; empty with no pool open). */
  readonly destinationResults: readonly PoolDestinationResult[];
  readonly stdio: readonly PoolAuthority[];
  readonly headerHelper: readonly PoolAuthority[];
  /**
   * A lease could be granted on at least one pool, activation aside: on one same pool the destination is
   * admitted (and the header helper, if any, allowed) or the stdio command allowed.
   */
  readonly launchable: boolean;
  /** Why it could not, one code per cause found (deduplicated); empty when launchable. */
  readonly refusals: readonly string[];
}

/**
 * Judges a launch target the way a lease would (admission.check shows the per-pool detail; the effective view
 * shows `launchable` and `refusals`). Reads only, logs nothing: the caller logs what it must.
 */
export async function judgeLaunch(target: LaunchTarget, ground: LaunchGround): Promise<LaunchJudgement> {
  if (target.kind === 'stdio') {
    const stdio = stdioAuthorityOf(target, ground);
    const launchable = stdio.some((authority) => authority.result === 'allowed');
    return {
      destination: 'not_applicable',
      destinationResults: [],
      stdio,
      headerHelper: [],
      launchable,
      refusals: launchable ? [] : refusalsOf(stdio, ground),
    };
  }
  const destinationResults =
    ground.pools.length === 0
      ? []
      : await admitOnPools(target.url, ground.tenantPolicy, ground.pools, ground.resolver);
  const admittedOn = destinationResults.filter((result) => result.ok).map((result) => result.pool);
  const headerHelper =
    target.headersHelper === null ? [] : headerHelperAuthorityOf(target.headersHelper, ground);
  const helperPools = new Set(headerHelper.filter((a) => a.result === 'allowed').map((a) => a.pool));
  const launchable =
    target.headersHelper === null ? admittedOn.length > 0 : admittedOn.some((pool) => helperPools.has(pool));
  const refusals: string[] = [];
  if (!launchable) {
    if (ground.pools.length === 0) refusals.push('no_pool_open');
    else if (admittedOn.length === 0) refusals.push('destination_refused');
    refusals.push(...refusalsOf(headerHelper, ground));
  }
  return {
    destination: admittedOn.length > 0 ? 'admitted' : 'destination_refused',
    destinationResults,
    stdio: [],
    headerHelper,
    launchable,
    refusals: [...new Set(refusals)],
  };
}

function refusalsOf(authorities: readonly PoolAuthority[], ground: LaunchGround): string[] {
  if (ground.pools.length === 0) return ['no_pool_open'];
  return [
    ...new Set(authorities.flatMap((authority) => (authority.reason === null ? [] : [authority.reason]))),
  ];
}

function stdioAuthorityOf(launch: StdioLaunch, ground: LaunchGround): PoolAuthority[] {
  return ground.pools.map(({ name, ceiling }) => {
    const effective = effectiveHostPolicy(ground.tenantPolicy, ceiling);
    const authority = checkStdioAuthority(launch, {
      stdioAllowed: ceiling.stdio,
      commands: effective.stdioCommands,
      ceiling: ceiling.commandCeiling,
      allowedRoots: effective.allowedRoots,
      envKeys: effective.childEnvKeys,
    });
    if (authority.ok) return { pool: name, result: 'allowed' as const, reason: null, key: null };
    const key = authority.reason === 'env_key_not_allowed' ? authority.key : null;
    return { pool: name, result: 'refused' as const, reason: authority.reason, key };
  });
}

function headerHelperAuthorityOf(helperArgv: readonly string[], ground: LaunchGround): PoolAuthority[] {
  return ground.pools.map(({ name, ceiling }) => {
    const authority = checkHeaderHelperAuthority(helperArgv, {
      helpersAllowed: ceiling.headerHelpers,
      commands: effectiveHostPolicy(ground.tenantPolicy, ceiling).headerHelpers,
      ceiling: ceiling.commandCeiling,
    });
    return authority.ok
      ? { pool: name, result: 'allowed' as const, reason: null, key: null }
      : { pool: name, result: 'refused' as const, reason: authority.reason, key: null };
  });
}
