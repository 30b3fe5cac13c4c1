import type { GatewayCaller } from '../callers/caller.js';
import type { CatalogCache, PolicyRead } from './catalog-cache.js';
import type { WorkspaceCatalogClient } from './workspace-catalog.client.js';

/**
 * The caller's catalog policy: from memory while fresh, else the catalog lease for the caller's principal (user
 * tokens: the user; agent tokens: the workspace alone). The API unreachable or refusing reads as unavailable.
 */
export async function callerPolicyOf(
  catalogs: CatalogCache,
  client: WorkspaceCatalogClient,
  caller: GatewayCaller,
): Promise<PolicyRead> {
  try {
    return await catalogs.policyFor(
      { tenantId: caller.tenantId, workspaceId: caller.workspaceId, principal: caller.userId },
      (etag) => client.read(caller.workspaceId, caller.userId, etag),
    );
  } catch {
    return { ok: false, status: 503 };
  }
}
