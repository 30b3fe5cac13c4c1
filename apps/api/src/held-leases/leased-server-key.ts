/**
 * What a holder's report is stored under (catalog snapshots, probes): one row per server, exact fingerprint and
 * principal of the lease it came with, the workspace alone keyed as `workspace`, so a later report for the same
 * identity replaces the earlier one and a report for another fingerprint or person never does.
 */
export function leasedServerKeyOf(lease: {
  readonly tenantId: string;
  readonly workspaceId: string;
  readonly serverName: string;
  readonly definitionFingerprint: string;
  readonly principalUserId: string | null;
}) {
  const unique = {
    tenantId: lease.tenantId,
    workspaceId: lease.workspaceId,
    serverName: lease.serverName,
    definitionFingerprint: lease.definitionFingerprint,
    principalKey: lease.principalUserId ?? 'workspace',
  };
  return { unique, identity: { ...unique, principalUserId: lease.principalUserId } };
}
