import type { TenantTx } from '@gatehouse/db';
import type { ResolveResult } from '@gatehouse/definitions';
import type { DefinitionCipher } from './definition-cipher';
import { loadDefinitionSnapshot } from './definition-snapshot';
import { resolveView } from './resolve-and-decide';

/**
 * Resolves one view of a workspace, without deciding activation: tenant-wide sources, the workspace's project
 * source and, for a principal, that user's user source and local source of this workspace; tenant and workspace
 * variables (and the user's own); the workspace's overlays (and the user's own). Another user's rows are never
 * read. What a sign-in or a service credential is for, and what an overlay may name, are read from it.
 */
export async function resolveWorkspaceView(
  tx: TenantTx,
  cipher: DefinitionCipher,
  args: { tenantId: string; workspaceId: string; userId: string | null },
): Promise<ResolveResult> {
  const snapshot = await loadDefinitionSnapshot(tx, cipher, {
    tenantId: args.tenantId,
    workspaceIds: [args.workspaceId],
    userIds: args.userId === null ? [] : [args.userId],
  });
  return resolveView(snapshot, args.workspaceId, args.userId);
}
