import type { Lease, TenantTx } from '@gatehouse/db';
import { materializedDefinitionOf } from '@gatehouse/definitions';
import type { DefinitionCipher } from '../effective-view/definition-cipher';
import { decideServerActivation } from '../effective-view/server-activation';

/** Whether what a live lease was issued on still holds now, re-decided for its one server. */
export type LeaseStanding =
  | {
      readonly holds: true;
      /** The approval activation matched now, and when it ends (a renewed lease ends no later). */
      readonly approvalId: string;
      readonly approvalExpiresAt: Date | null;
      /** The server declares OAuth: the lease carries an access token, and never outlives it. */
      readonly carriesAccessToken: boolean;
    }
  | {
      readonly holds: false;
      /** A short word for `leases.revoked_reason`: never a value of the definition. */
      readonly reason: string;
    };

/**
 * Re-decides activation for the lease's server, view and principal at `now`, the check renew and catalog.submit
 * make beside the lease row (which the ledger's events end, decision 0071): a change the ledger missed (a row
 * written past the API, an approval that expired before any sweep) still refuses. It holds only while an
 * approval is in force (not revoked, not expired) for exactly the definition fingerprint and security identity
 * the lease was issued for. Reads only.
 */
export async function decideLeaseStanding(
  tx: TenantTx,
  cipher: DefinitionCipher,
  lease: Lease,
  now: Date,
): Promise<LeaseStanding> {
  const workspace = await tx.workspace.findUnique({ where: { id: lease.workspaceId } });
  if (workspace === null) return { holds: false, reason: 'workspace_gone' };
  const { entry, decision } = await decideServerActivation(tx, cipher, {
    tenantId: lease.tenantId,
    workspace,
    userId: lease.principalUserId,
    serverName: lease.serverName,
    now,
  });
  if (entry === null || decision === null) return { holds: false, reason: 'server_gone' };
  if (decision.state !== 'approved') return { holds: false, reason: `activation_${decision.state}` };
  if (
    entry.status !== 'resolved' ||
    entry.fingerprint !== lease.definitionFingerprint ||
    entry.identity.key !== lease.securityIdentity
  )
    return { holds: false, reason: 'definition_changed' };
  const transport = materializedDefinitionOf(entry)?.transport;
  return {
    holds: true,
    approvalId: decision.matchedApprovalId,
    approvalExpiresAt: decision.expiresAt,
    carriesAccessToken: transport?.kind === 'http' && transport.oauth !== null,
  };
}
