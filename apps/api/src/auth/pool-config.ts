import { typeLabel } from '@gatehouse/platform';
import { z } from 'zod';

// Operator config (the API process's WORKER_POOLS variable, never the database): which worker/gateway pools
// exist and which tenants each is open to. A worker token must name a pool open to its tenant. Later issues
// add the pool's stdio authority and roots to the same object.
//   WORKER_POOLS='{"default":{"tenants":"*"}}'            one pool, open to every tenant
//   WORKER_POOLS='{"eu":{"tenants":["acme","globex"]}}'   open to these tenant slugs only

const poolName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'pool names are lowercase letters, digits and dashes');
const tenantSlug = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'tenants are listed by slug');

export const workerPoolSchema = z.strictObject({
  tenants: z.union([z.literal('*'), z.array(tenantSlug).max(10_000)]),
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

export function isPoolOpenToTenant(pools: WorkerPools, pool: string, tenantSlug: string): boolean {
  if (!Object.hasOwn(pools, pool)) return false;
  const tenants = pools[pool]?.tenants;
  return tenants === '*' || (tenants !== undefined && tenants.includes(tenantSlug));
}
