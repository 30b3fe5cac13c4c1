/** The change-notifier topic of a workspace's catalog: snapshot writes and catalog-relevant revocations publish it. */
export function catalogTopicOf(workspaceId: string): string {
  return `catalog:${workspaceId.toLowerCase()}`;
}
