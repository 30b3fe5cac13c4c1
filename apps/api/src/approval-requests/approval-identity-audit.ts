import type { ApprovalIdentity } from '@gatehouse/activation';

/**
 * The full identity for an audit event, flat (audit data holds scalars and string lists only). Every field is a
 * name, an origin, a hash or an id: never a value from a definition.
 */
export function identityAuditData(identity: ApprovalIdentity): Record<string, string | number | null> {
  return {
    approvalIdentity: identity.key,
    serverName: identity.serverName,
    sourceTier: identity.source.tier,
    sourceOrigin: identity.source.origin,
    definitionFingerprint: identity.definitionFingerprint,
    securityIdentity: identity.securityIdentity,
    principalUserId: identity.principalUserId,
    repositoryIdentity: identity.repositoryIdentity,
    workspaceGeneration: identity.workspaceGeneration,
  };
}
