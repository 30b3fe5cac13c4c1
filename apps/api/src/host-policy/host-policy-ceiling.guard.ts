import { isChildEnvEntryCovered } from '@gatehouse/activation';
import { cidrWithin, isCidr } from '@gatehouse/egress';
import type { PoolCeiling } from '../auth/pool-config';
import { startsWithArgv, type ArgvPrefix, type TenantHostPolicy } from './host-policy';
import { containsMetadataAddress } from './metadata-ranges';

export type CeilingField = 'stdioCommands' | 'headerHelpers' | 'privateCidrs' | 'childEnvKeys';

export type CeilingCheck =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly field: CeilingField;
      readonly index: number;
      readonly reason: 'outside_operator_ceiling' | 'metadata_range' | 'invalid_cidr';
    };

/** A stdio or header-helper argv fits a pool when the pool allows the kind and one ceiling prefix starts it. */
export function commandFitsPool(argv: ArgvPrefix, allowed: boolean, ceiling: PoolCeiling): boolean {
  return allowed && ceiling.commandCeiling.some((prefix) => startsWithArgv(argv, prefix));
}

/** A private range fits a pool when it lies within a range the pool lets tenants opt into, and is no metadata. */
export function cidrFitsPool(cidr: string, ceiling: PoolCeiling): boolean {
  return (
    !containsMetadataAddress(cidr) &&
    ceiling.privateRangesTenantsMayOptInto.some((outer) => cidrWithin(cidr, outer))
  );
}

/**
 * Checks a HostPolicy a tenant wants to write against the pools open to it: each entry must fit at least one
 * pool's ceiling (at lease time the entry is kept only where it fits the asking pool). The first misfit is
 * named by field and index; never by value, which the caller already has.
 */
export function checkAgainstCeilings(
  policy: TenantHostPolicy,
  ceilings: readonly PoolCeiling[],
): CeilingCheck {
  const commandKinds = [
    ['stdioCommands', (c: PoolCeiling) => c.stdio],
    ['headerHelpers', (c: PoolCeiling) => c.headerHelpers],
  ] as const;
  for (const [field, allows] of commandKinds) {
    const index = policy[field].findIndex(
      (argv) => !ceilings.some((ceiling) => commandFitsPool(argv, allows(ceiling), ceiling)),
    );
    if (index >= 0) return { ok: false, field, index, reason: 'outside_operator_ceiling' };
  }
  for (const [index, cidr] of policy.privateCidrs.entries()) {
    if (!isCidr(cidr)) return { ok: false, field: 'privateCidrs', index, reason: 'invalid_cidr' };
    if (containsMetadataAddress(cidr))
      return { ok: false, field: 'privateCidrs', index, reason: 'metadata_range' };
    if (!ceilings.some((ceiling) => cidrFitsPool(cidr, ceiling)))
      return { ok: false, field: 'privateCidrs', index, reason: 'outside_operator_ceiling' };
  }
  // Each env entry must be allowed by some open pool's list (a prefix by a pool prefix it starts with).
  const envIndex = (policy.childEnvKeys ?? []).findIndex(
    (entry) => !ceilings.some((ceiling) => isChildEnvEntryCovered(entry, ceiling.childEnvKeys)),
  );
  if (envIndex >= 0)
    return { ok: false, field: 'childEnvKeys', index: envIndex, reason: 'outside_operator_ceiling' };
  return { ok: true };
}
