import { findHeldLeaseTenant, findWorkspaceTenant, type Database, type TenantRef } from '@gatehouse/db';
import type { AuditEventInput } from '../audit/audit-event';
import { isPoolOpenToTenant, type WorkerPools } from '../auth/pool-config';
import type { Principal } from '../auth/principal';
import { forbiddenCaller, notFound, poolNotOpen } from '../shared/command-problems';

/**
 * Who asks for, renews or releases a lease, with the tenant it acts in. A worker token acts in its own tenant; a
 * gateway token (no tenant) in the tenant of the workspace it names, or of the lease it holds.
 */
export interface LeaseCaller {
  readonly tenantId: string;
  readonly tenantSlug: string;
  readonly tokenId: string;
  readonly tokenKind: 'worker' | 'gateway';
  /** The pool whose authority leases are decided under (the token's). */
  readonly pool: string;
  /** Workspaces a worker token is bound to; empty: not bound (gateway tokens never are). */
  readonly workspaceIds: readonly string[];
}

/** The token as the audit names it (worker and gateway tokens act for no person of their own). */
export function leaseAuditActor(caller: LeaseCaller): AuditEventInput['actor'] {
  return { type: 'token', id: caller.tokenId, tokenKind: caller.tokenKind };
}

/** The caller for issuing in a workspace: another tenant's workspace, or one the token cannot see, is a 404. */
export async function leaseCallerForWorkspace(
  db: Database,
  pools: WorkerPools,
  principal: Principal,
  workspaceId: string,
): Promise<LeaseCaller> {
  if (principal.type === 'tenant') {
    const caller = workerCaller(principal);
    if (caller.workspaceIds.length > 0 && !caller.workspaceIds.includes(workspaceId.toLowerCase()))
      throw notFound('workspace');
    return caller;
  }
  return gatewayCaller(pools, principal.tokenId, principal.pool, await findWorkspaceTenant(db, workspaceId));
}

/** The caller for renewing or releasing: a lease this token does not hold reads as no lease at all (404). */
export async function leaseCallerForLease(
  db: Database,
  pools: WorkerPools,
  principal: Principal,
  leaseId: string,
): Promise<LeaseCaller> {
  if (principal.type === 'tenant') return workerCaller(principal);
  return gatewayCaller(
    pools,
    principal.tokenId,
    principal.pool,
    await findHeldLeaseTenant(db, leaseId, principal.tokenId),
    'lease',
  );
}

function workerCaller(principal: Extract<Principal, { type: 'tenant' }>): LeaseCaller {
  // The declaration lists worker and gateway callers only; the runner already refused every other kind.
  if (principal.via !== 'worker' || principal.tokenId === null) throw forbiddenCaller(principal.via);
  // The runner checked the pool is still open to the tenant; a worker token without one never gets here.
  if (principal.pool === null) throw poolNotOpen();
  return {
    tenantId: principal.tenantId,
    tenantSlug: principal.tenantSlug,
    tokenId: principal.tokenId,
    tokenKind: 'worker',
    pool: principal.pool,
    workspaceIds: principal.workspaceIds,
  };
}

/**
 * A gateway token leases under its own pool, which must be open to the tenant it acts in. A pool closed to that
 * tenant answers like a missing workspace, so a gateway learns nothing about tenants it does not serve.
 */
function gatewayCaller(
  pools: WorkerPools,
  tokenId: string,
  pool: string | undefined,
  tenant: TenantRef | null,
  what: 'workspace' | 'lease' = 'workspace',
): LeaseCaller {
  if (pool === undefined) throw poolNotOpen();
  if (tenant === null || !isPoolOpenToTenant(pools, pool, tenant.tenantSlug)) throw notFound(what);
  return {
    tenantId: tenant.tenantId,
    tenantSlug: tenant.tenantSlug,
    tokenId,
    tokenKind: 'gateway',
    pool,
    workspaceIds: [],
  };
}
