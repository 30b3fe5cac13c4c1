import type { LookupQuery } from '../database';
import type { TenantTx } from '../tenancy/prisma-client';

// The approval-expiry sweep's two statements (docs/decisions/0072-approval-expiry-sweep.md): which tenants have
// an expiry to record, and, in one tenant's transaction, claiming those expiries exactly once.

/** Tenants with an approved, unrevoked decision whose expiry passed unrecorded (at most `limit`). */
export async function listTenantsWithUnrecordedExpiries(query: LookupQuery, limit = 100): Promise<string[]> {
  const rows = await query<{ id: string }>`
    SELECT t AS id FROM gh_tenants_with_unrecorded_expiries(${limit}::int) AS t`;
  return rows.map((row) => row.id);
}

/** An approval whose expiry the caller now records (its ledger event goes in the same transaction). */
export interface ExpiredApproval {
  readonly id: string;
  readonly workspaceId: string;
  readonly serverName: string;
  readonly principalUserId: string | null;
}

/**
 * Marks up to `limit` expired, unrecorded approvals of the transaction's tenant as recorded and returns them.
 * Rows another transaction is recording are skipped (SKIP LOCKED), and a row it recorded no longer matches once
 * that one commits, so of several sweeps at once each expiry is claimed by exactly one; a rollback (the event
 * failed to append) leaves it unrecorded for the next sweep.
 */
export async function claimUnrecordedExpiries(tx: TenantTx, limit = 200): Promise<ExpiredApproval[]> {
  const rows = await tx.$queryRaw<
    { id: string; workspace_id: string; server_name: string; principal_user_id: string | null }[]
  >`
    UPDATE approvals SET expiry_recorded_at = now()
     WHERE id IN (
       SELECT id FROM approvals
        WHERE decision = 'approved' AND expires_at <= now()
          AND revoked_at IS NULL AND expiry_recorded_at IS NULL
        ORDER BY expires_at
        LIMIT ${limit}::int
        FOR UPDATE SKIP LOCKED)
    RETURNING id, workspace_id, server_name, principal_user_id`;
  return rows.map((row) => ({
    id: row.id,
    workspaceId: row.workspace_id,
    serverName: row.server_name,
    principalUserId: row.principal_user_id,
  }));
}
