import { randomUUID } from 'node:crypto';
import type { ApiToken, TenantTx } from '@gatehouse/db';
import { mintTokenSecret } from './api-token-format';
import type { TokenGrant } from './token-creation.policy';

export interface MintApiTokenOptions {
  readonly tenantId: string;
  /** Who minted it: the user behind the creating credential; null when the operator's CLI did. */
  readonly createdById: string | null;
  readonly name: string;
  /** What `decideTokenCreation` allowed: only a grant can be minted, so the rules cannot be skipped. */
  readonly grant: TokenGrant;
  readonly expiresAt: Date | null;
}

export interface MintedApiToken {
  readonly token: ApiToken;
  /** The one and only time the secret exists outside the caller's hands: return it once, never log it. */
  readonly secret: string;
}

/**
 * Inserts a tenant token (user, agent or worker) inside the caller's tenant transaction: the caller writes
 * the audit event in the same transaction. Gateway tokens are not tenant rows and are minted by the
 * operator's CLI through `insertGatewayToken` (owner connection) instead.
 */
export async function mintApiToken(tx: TenantTx, options: MintApiTokenOptions): Promise<MintedApiToken> {
  const minted = mintTokenSecret(options.grant.kind);
  const token = await tx.apiToken.create({
    data: {
      id: randomUUID(),
      tenantId: options.tenantId,
      userId: options.grant.userId,
      createdById: options.createdById,
      kind: options.grant.kind,
      name: options.name,
      scopes: [...options.grant.scopes],
      workspaceIds: [...options.grant.workspaceIds],
      pool: options.grant.pool,
      secretHash: minted.secretHash,
      prefix: minted.prefix,
      expiresAt: options.expiresAt,
    },
  });
  return { token, secret: minted.secret };
}

/** Workspace ids of this tenant among `ids` (lower-case), for `decideTokenCreation`'s context. */
export async function existingWorkspaceIds(
  tx: TenantTx,
  ids: readonly string[],
): Promise<ReadonlySet<string>> {
  if (ids.length === 0) return new Set();
  const rows = await tx.workspace.findMany({
    where: { id: { in: ids.map((id) => id.toLowerCase()) } },
    select: { id: true },
  });
  return new Set(rows.map((row) => row.id.toLowerCase()));
}

/** `expiresInDays` from now, or no expiry. */
export function tokenExpiry(expiresInDays: number | undefined, now: Date = new Date()): Date | null {
  return expiresInDays === undefined ? null : new Date(now.getTime() + expiresInDays * 86_400_000);
}
