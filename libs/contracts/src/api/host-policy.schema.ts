import { z } from 'zod';
import { childEnvKeyEntry } from '../leases/admitted-transport.schema';
import { isoDateTime } from './common.schema';

// A tenant's HostPolicy (docs/architecture/approvals.md): what it asks of the worker pools open to it. It can
// only narrow the operator's ceiling (WORKER_POOLS); the use case refuses a choice outside every open pool's
// ceiling, and at lease time the choice is intersected with the asking pool's ceiling.

/** An exact argv prefix: a child's argv must start with these strings, in order. */
const argv = z.array(z.string().min(1).max(4096)).min(1).max(64);
/** A CIDR such as 10.1.0.0/16 (checked against the ceiling by the use case). */
const cidrText = z.string().min(3).max(64);
const origin = z
  .string()
  .max(2048)
  .regex(/^https?:\/\/[^/?#\s]+$/, 'an origin: scheme://host[:port], without path, query or fragment');

const policyFields = {
  /** Stdio commands the tenant's definitions may run, as argv prefixes. */
  stdioCommands: z.array(argv).max(100),
  /** Header-helper commands, as argv prefixes. */
  headerHelpers: z.array(argv).max(100),
  /** Private ranges the tenant opts into (each within a pool's privateRangesTenantsMayOptInto). */
  privateCidrs: z.array(cidrText).max(100),
  /** Origins that receive W3C trace context headers. */
  traceContextOrigins: z.array(origin).max(100),
  /** With four-eyes on, the author of a change cannot approve it. */
  fourEyes: z.boolean(),
};

/**
 * Env names the tenant's stdio definitions may set (exact names, or prefixes such as `MYCORP_*`), each within
 * some open pool's `childEnvKeys`; null: each pool's own list.
 */
const childEnvKeys = z.array(childEnvKeyEntry).max(100).nullable();

export const hostPolicyView = z
  .object({ ...policyFields, childEnvKeys, updatedAt: isoDateTime.nullable() })
  .meta({ title: 'HostPolicy' });

/** A pool's ceiling as a tenant may see it: never the operator's denylist, uid/gid or loopback setting. */
export const poolCeilingView = z
  .object({
    pool: z.string(),
    stdio: z.boolean(),
    headerHelpers: z.boolean(),
    allowedRoots: z.array(z.string()),
    commandCeiling: z.array(z.array(z.string())),
    /** Env names a stdio definition may set on this pool (exact names, or prefixes ending with `_*`). */
    childEnvKeys: z.array(z.string()),
    privateRangesTenantsMayOptInto: z.array(z.string()),
  })
  .meta({ title: 'PoolCeiling' });

export const hostPolicyWithCeiling = z
  .object({ policy: hostPolicyView, pools: z.array(poolCeilingView) })
  .meta({ title: 'HostPolicyWithCeiling' });

export const getHostPolicyInput = z.strictObject({});
/** `childEnvKeys` absent keeps the stored value (a client that predates it cannot widen it); null resets it. */
export const putHostPolicyInput = z.strictObject({ ...policyFields, childEnvKeys: childEnvKeys.optional() });
