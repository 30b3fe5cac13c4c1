import type { CommandOutput, getHostPolicy } from '@gatehouse/commands';
import { poolsOpenToTenant, type WorkerPools } from '../auth/pool-config';
import type { ArgvPrefix, TenantHostPolicy } from './host-policy';
import { EMPTY_HOST_POLICY } from './host-policy';

export interface HostPolicyRow {
  readonly stdioCommands: unknown;
  readonly headerHelpers: unknown;
  readonly privateCidrs: readonly string[];
  readonly traceContextOrigins: readonly string[];
  readonly fourEyes: boolean;
  readonly childEnvKeys: unknown;
  readonly updatedAt: Date;
}

function argvList(value: unknown): ArgvPrefix[] {
  // Written only by hostPolicy.put (validated); anything else is a corrupted row, read as "nothing allowed".
  if (!Array.isArray(value)) return [];
  return value.filter(
    (argv): argv is string[] => Array.isArray(argv) && argv.every((part) => typeof part === 'string'),
  );
}

function envKeyList(value: unknown): string[] | null {
  // Null: each pool's own list. Written only by hostPolicy.put (validated); anything else is a corrupted row,
  // read as "no env name allowed".
  if (value === null || value === undefined) return null;
  if (!Array.isArray(value)) return [];
  return value.filter((entry): entry is string => typeof entry === 'string');
}

export function hostPolicyOfRow(row: HostPolicyRow | null): TenantHostPolicy {
  if (row === null) return EMPTY_HOST_POLICY;
  return {
    stdioCommands: argvList(row.stdioCommands),
    headerHelpers: argvList(row.headerHelpers),
    privateCidrs: [...row.privateCidrs],
    traceContextOrigins: [...row.traceContextOrigins],
    fourEyes: row.fourEyes,
    childEnvKeys: envKeyList(row.childEnvKeys),
  };
}

/** The tenant's policy beside the ceilings of its open pools, without what only the operator may know. */
export function toHostPolicyView(
  row: HostPolicyRow | null,
  pools: WorkerPools,
  tenantSlug: string,
): CommandOutput<typeof getHostPolicy> {
  const policy = hostPolicyOfRow(row);
  return {
    policy: {
      stdioCommands: policy.stdioCommands.map((argv) => [...argv]),
      headerHelpers: policy.headerHelpers.map((argv) => [...argv]),
      privateCidrs: [...policy.privateCidrs],
      traceContextOrigins: [...policy.traceContextOrigins],
      fourEyes: policy.fourEyes,
      childEnvKeys: policy.childEnvKeys === null ? null : [...policy.childEnvKeys],
      updatedAt: row === null ? null : row.updatedAt.toISOString(),
    },
    pools: poolsOpenToTenant(pools, tenantSlug).map(({ name, ceiling }) => ({
      pool: name,
      stdio: ceiling.stdio,
      headerHelpers: ceiling.headerHelpers,
      allowedRoots: [...ceiling.allowedRoots],
      commandCeiling: ceiling.commandCeiling.map((argv) => [...argv]),
      childEnvKeys: [...ceiling.childEnvKeys],
      privateRangesTenantsMayOptInto: [...ceiling.privateRangesTenantsMayOptInto],
    })),
  };
}
