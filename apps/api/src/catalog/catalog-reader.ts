import type { Database, TenantTx, Workspace } from '@gatehouse/db';
import type { WorkerPools } from '../auth/pool-config';
import type { Principal } from '../auth/principal';
import { leaseCallerForWorkspace } from '../held-leases/lease-caller';
import { forbidden, notFound } from '../shared/command-problems';
import { findVisibleWorkspace } from '../auth/workspace-visibility';

/** Who reads a catalog: in which tenant, for which principal, and how the workspace is looked up for them. */
export interface CatalogReader {
  readonly tenantId: string;
  /** The principal the catalog is for; null: the workspace alone. */
  readonly principalUserId: string | null;
  /** The workspace as this caller may see it (a workspace-bound token sees only its own): 404 otherwise. */
  findWorkspace(tx: TenantTx, workspaceId: string): Promise<Workspace>;
  /** A named principal must be a member of the tenant (404 otherwise); a person reading their own is one. */
  readonly checksMember: boolean;
  /** The workspaces a workspace-bound token may read (empty: not bound); any other reads as missing. */
  readonly boundWorkspaceIds: readonly string[];
}

/**
 * The trust model's principals (docs/architecture/README.md): a person (session or user token) reads their
 * own catalog; an agent token, which belongs to no user, reads the workspace alone; worker and gateway tokens
 * act for someone and may name the principal (`?principal=`), the workspace alone otherwise. A gateway token
 * has no tenant: it acts in the workspace's, when its pool is open to it (as for leases); otherwise the
 * workspace does not exist for it.
 */
export async function catalogReaderOf(
  db: Database,
  pools: WorkerPools,
  principal: Principal,
  input: { readonly workspaceId: string; readonly principal?: string | undefined },
): Promise<CatalogReader> {
  const named = input.principal?.toLowerCase() ?? null;
  if (principal.type === 'platform') {
    const caller = await leaseCallerForWorkspace(db, pools, principal, input.workspaceId);
    return {
      tenantId: caller.tenantId,
      principalUserId: named,
      checksMember: named !== null,
      boundWorkspaceIds: [],
      findWorkspace: async (tx, workspaceId) => {
        const workspace = await tx.workspace.findUnique({ where: { id: workspaceId } });
        if (workspace === null) throw notFound('workspace');
        return workspace;
      },
    };
  }
  const tenant = {
    tenantId: principal.tenantId,
    boundWorkspaceIds: principal.workspaceIds,
    findWorkspace: (tx: TenantTx, workspaceId: string) => findVisibleWorkspace(tx, principal, workspaceId),
  };
  switch (principal.via) {
    case 'session':
    case 'user': {
      const own = principal.userId;
      if (own === null) throw forbidden('This credential acts for no person.');
      if (named !== null && named !== own)
        throw forbidden("A person reads their own catalog, not another's.");
      return { ...tenant, principalUserId: own, checksMember: false };
    }
    case 'agent':
      if (named !== null) throw forbidden('An agent token reads the catalog of its workspace alone.');
      return { ...tenant, principalUserId: null, checksMember: false };
    case 'worker':
      return { ...tenant, principalUserId: named, checksMember: named !== null };
  }
}

/** A principal named by a worker or gateway token must belong to the tenant: anyone else reads as no one. */
export async function assertCatalogPrincipal(tx: TenantTx, reader: CatalogReader): Promise<void> {
  if (!reader.checksMember || reader.principalUserId === null) return;
  const membership = await tx.membership.findUnique({
    where: { tenantId_userId: { tenantId: reader.tenantId, userId: reader.principalUserId } },
    select: { id: true },
  });
  if (membership === null) throw notFound('member');
}
