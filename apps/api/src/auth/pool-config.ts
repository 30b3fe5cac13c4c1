import { childEnvEntryProblem, DEFAULT_CHILD_ENV_KEYS } from '@gatehouse/activation';
import { absolutePath, childEnvKeyEntry, unixId } from '@gatehouse/contracts';
import { isCidr } from '@gatehouse/egress';
import { typeLabel } from '@gatehouse/platform';
import { z } from 'zod';

// Operator config (the API process's WORKER_POOLS variable, never the database): which worker/gateway pools
// exist, which tenants each is open to, and each pool's ceiling: the most a tenant's HostPolicy may ask of it.
// A worker token must name a pool open to its tenant. Every ceiling field is optional and absent means the
// narrowest choice (no stdio, no header helpers, no roots, no private ranges), so the default stays closed.
//   WORKER_POOLS='{"default":{"tenants":"*"}}'            one pool, open to every tenant, nothing local allowed
//   WORKER_POOLS='{"eu":{"tenants":["acme"],"stdio":true,"commandCeiling":[["npx","-y","@modelcontextprotocol/server-everything"]]}}'
// `childEnvKeys` is the one field whose absence is not "nothing": absent, a stdio definition may set the names of
// DEFAULT_CHILD_ENV_KEYS (names only the server reads; docs/decisions/0127-child-environment-allowlist.md).

const poolName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'pool names are lowercase letters, digits and dashes');
const tenantSlug = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'tenants are listed by slug');

const argvPrefix = z.array(z.string().min(1).max(4096)).min(1).max(64);
const cidr = z.string().refine(isCidr, 'must be a CIDR such as 10.0.0.0/8');
// A denylist entry: a CIDR, an exact host name or `*.suffix` (libs/egress checks the host names at use).
const denyEntry = z.string().min(1).max(253);
/** An env allowlist entry: an exact name or `PREFIX_*`, never covering a name the spawner sets (PATH, HOME...). */
const childEnvEntry = childEnvKeyEntry.superRefine((entry, context) => {
  if (childEnvEntryProblem(entry) === 'covers_spawner_owned_key')
    context.addIssue({
      code: 'custom',
      message: 'covers a name the spawner sets for every child (HOME LOGNAME PATH SHELL TERM USER)',
    });
});

export const workerPoolSchema = z.strictObject({
  tenants: z.union([z.literal('*'), z.array(tenantSlug).max(10_000)]),
  stdio: z.boolean().optional(),
  headerHelpers: z.boolean().optional(),
  allowedRoots: z.array(absolutePath).max(100).optional(),
  /** Exact argv prefixes a child process's argv must start with (a tenant may only name longer ones). */
  commandCeiling: z.array(argvPrefix).max(1000).optional(),
  /**
   * The env names a stdio definition may set for a child here: exact names or `PREFIX_*` (case-sensitive);
   * absent: DEFAULT_CHILD_ENV_KEYS. A tenant's HostPolicy may only narrow it.
   */
  childEnvKeys: z.array(childEnvEntry).max(1000).optional(),
  /** The account children run as (never root: a child of a root worker would hold the machine). */
  runAs: z
    .strictObject({ uid: unixId, gid: unixId })
    .refine((account) => account.uid !== 0 && account.gid !== 0, 'runAs must not be uid 0 or gid 0')
    .optional(),
  /** The operator's own infrastructure: CIDRs and host names no URL may reach. Never shown to tenants. */
  egressDenylist: z.array(denyEntry).max(1000).optional(),
  privateRangesTenantsMayOptInto: z.array(cidr).max(1000).optional(),
  /** Development and tests only: the API config refuses it when NODE_ENV=production. */
  allowInsecureLoopback: z.boolean().optional(),
});

export const workerPoolsSchema = z.record(poolName, workerPoolSchema);

export type WorkerPool = z.infer<typeof workerPoolSchema>;
export type WorkerPools = Readonly<Record<string, WorkerPool>>;

/** Used when WORKER_POOLS is unset: one `default` pool open to every tenant (a single-operator install). */
export const DEFAULT_WORKER_POOLS: WorkerPools = Object.freeze({
  default: Object.freeze({ tenants: '*' as const }),
});

/** WORKER_POOLS as an env field: a JSON string parsed into the pools. Messages never echo the value. */
export const workerPoolsEnvField = typeLabel(z.string(), 'JSON')
  .transform((value, context) => {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      context.addIssue({ code: 'custom', message: 'must be a JSON object of pools' });
      return z.NEVER;
    }
  })
  .pipe(workerPoolsSchema)
  .describe('Worker pools and the tenants each is open to, as JSON: {"default":{"tenants":"*"}}.');

/** A pool's ceiling with every absent field made explicit (absent = the narrowest choice). */
export interface PoolCeiling {
  readonly stdio: boolean;
  readonly headerHelpers: boolean;
  readonly allowedRoots: readonly string[];
  readonly commandCeiling: readonly (readonly string[])[];
  /** The env allowlist for stdio definitions (the default set when the config names none). */
  readonly childEnvKeys: readonly string[];
  readonly runAs: { readonly uid: number; readonly gid: number } | null;
  readonly egressDenylist: readonly string[];
  readonly privateRangesTenantsMayOptInto: readonly string[];
  readonly allowInsecureLoopback: boolean;
}

export function poolCeilingOf(pool: WorkerPool): PoolCeiling {
  return {
    stdio: pool.stdio ?? false,
    headerHelpers: pool.headerHelpers ?? false,
    allowedRoots: pool.allowedRoots ?? [],
    commandCeiling: pool.commandCeiling ?? [],
    childEnvKeys: pool.childEnvKeys ?? DEFAULT_CHILD_ENV_KEYS,
    runAs: pool.runAs ?? null,
    egressDenylist: pool.egressDenylist ?? [],
    privateRangesTenantsMayOptInto: pool.privateRangesTenantsMayOptInto ?? [],
    allowInsecureLoopback: pool.allowInsecureLoopback ?? false,
  };
}

/** The pools open to a tenant, by name, with their ceilings (sorted by name for stable output). */
export function poolsOpenToTenant(
  pools: WorkerPools,
  tenantSlug: string,
): { readonly name: string; readonly ceiling: PoolCeiling }[] {
  return Object.keys(pools)
    .sort()
    .filter((name) => isPoolOpenToTenant(pools, name, tenantSlug))
    .map((name) => ({ name, ceiling: poolCeilingOf(pools[name] as WorkerPool) }));
}

/** Pools whose config allows plain-http loopback (refused by the API config in production). */
export function poolsAllowingInsecureLoopback(pools: WorkerPools): string[] {
  return Object.keys(pools).filter((name) => pools[name]?.allowInsecureLoopback === true);
}

export function isPoolOpenToTenant(pools: WorkerPools, pool: string, tenantSlug: string): boolean {
  if (!Object.hasOwn(pools, pool)) return false;
  const tenants = pools[pool]?.tenants;
  return tenants === '*' || (tenants !== undefined && tenants.includes(tenantSlug));
}
