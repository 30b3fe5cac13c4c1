import { integerField } from '@gatehouse/platform';
import { DEFAULT_WORKER_POOLS, workerPoolsEnvField, type WorkerPools } from './pool-config';
import type { SessionPolicy } from './session-policy';

/**
 * The environment variables identity adds to the API's config schema (spread into apiConfigSchema, like
 * processConfigShape()). TRUSTED_PROXIES is already part of the API config.
 */
export function identityConfigShape() {
  return {
    WORKER_POOLS: workerPoolsEnvField
      .default(DEFAULT_WORKER_POOLS as Record<string, { tenants: '*' | string[] }>)
      .describe(
        'Worker pools, the tenants each is open to and each pool\'s ceiling, as JSON: {"default":{"tenants":"*"}} (the default: no stdio, no header helpers, no roots, no private ranges). Optional per pool: stdio, headerHelpers, allowedRoots, commandCeiling (argv prefixes), childEnvKeys (env names a stdio definition may set: exact names or PREFIX_* entries; absent: MCP_* and a few conventional server credentials, decision 0127), runAs {uid,gid}, egressDenylist, privateRangesTenantsMayOptInto, allowInsecureLoopback (refused in production).',
      ),
    SESSION_IDLE_MINUTES: integerField({ min: 1, max: 24 * 60 })
      .default(30)
      .describe('A dashboard session unused this many minutes ends.'),
    SESSION_ABSOLUTE_HOURS: integerField({ min: 1, max: 24 * 30 })
      .default(12)
      .describe('A dashboard session ends this many hours after sign-in, however active.'),
  };
}

export interface IdentitySettings {
  readonly workerPools: WorkerPools;
  readonly sessionPolicy: SessionPolicy;
}

export function identitySettingsOf(config: {
  readonly WORKER_POOLS: WorkerPools;
  readonly SESSION_IDLE_MINUTES: number;
  readonly SESSION_ABSOLUTE_HOURS: number;
}): IdentitySettings {
  return {
    workerPools: config.WORKER_POOLS,
    sessionPolicy: {
      idleTimeoutMs: config.SESSION_IDLE_MINUTES * 60_000,
      absoluteTimeoutMs: config.SESSION_ABSOLUTE_HOURS * 3_600_000,
    },
  };
}
