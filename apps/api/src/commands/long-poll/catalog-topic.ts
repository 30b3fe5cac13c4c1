/** The change-notifier topic of a workspace's catalog: snapshot writes and catalog-relevant revocations publish it. */
export function catalogTopicOf(workspaceId: string): string {
  return `catalog:${workspaceId.toLowerCase()}`;
}

/**
 * The change-notifier topic of every catalog of a tenant: a change whose event names no workspace (a managed
 * source, the HostPolicy, a member) publishes it. A catalog read watches both topics.
 */
export function catalogTenantTopicOf(tenantId: string): string {
  return `catalog-tenant:${tenantId.toLowerCase()}`;
}
