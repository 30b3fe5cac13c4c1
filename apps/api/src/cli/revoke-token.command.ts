import { findTenantIdBySlug, isUuid, revokeGatewayToken } from '@gatehouse/db';
import { appendAuditEvent } from '../audit/append-audit-event';
import { parseCommandArgs, required } from './cli-args';
import { requireMigrationDatabaseUrl } from './cli-config';
import { OPERATOR_ACTOR, type CliContext } from './cli-context';
import { CliError, usageError } from './cli-io';
import { appendLeaseChange } from '../revocations/lease-change-event';

export const REVOKE_TOKEN_USAGE = 'gatehouse admin revoke-token --id TOKEN_ID [--tenant SLUG] [--json]';

/**
 * Revokes a token at once (the next request with it is refused). Without --tenant the id names a gateway token,
 * revoked through the owner connection; with --tenant, one of that tenant's tokens, audited as the operator.
 */
export async function revokeTokenCommand(args: readonly string[], ctx: CliContext): Promise<void> {
  const values = parseCommandArgs(args, {
    id: { type: 'string' },
    tenant: { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  const id = required(values.id, 'id');
  if (!isUuid(id)) throw usageError('--id must be a token id (a uuid)');
  const tokenId = id.toLowerCase();
  const json = values.json === true;
  if (values.tenant === undefined) return revokeGateway(tokenId, ctx, json);
  return revokeTenantToken(tokenId, values.tenant, ctx, json);
}

async function revokeGateway(tokenId: string, ctx: CliContext, json: boolean): Promise<void> {
  const revoked = await revokeGatewayToken({
    ownerUrl: requireMigrationDatabaseUrl(ctx.config),
    id: tokenId,
  });
  // The function cannot tell an unknown id from one already revoked (or a tenant token's id): say both.
  if (!revoked) {
    throw new CliError(
      `no live gateway token ${tokenId} (unknown or already revoked; tenant tokens need --tenant)`,
    );
  }
  ctx.print({ tokenId, tenant: null, kind: 'gateway', status: 'revoked' }, json);
}

async function revokeTenantToken(
  tokenId: string,
  tenantSlug: string,
  ctx: CliContext,
  json: boolean,
): Promise<void> {
  const db = ctx.database();
  const tenantId = await findTenantIdBySlug(db, tenantSlug);
  if (tenantId === null) throw new CliError(`no tenant with slug ${tenantSlug}`);
  const token = await db.withTenant(tenantId, async (tx) => {
    const found = await tx.apiToken.findUnique({ where: { id: tokenId } });
    if (found === null) throw new CliError(`no token ${tokenId} in tenant ${tenantSlug}`);
    const alreadyRevoked = found.revokedAt !== null;
    const revoked = alreadyRevoked
      ? found
      : await tx.apiToken.update({ where: { id: found.id }, data: { revokedAt: new Date() } });
    if (!alreadyRevoked) await appendLeaseChange(tx, 'token_revoked', { tokenIds: [revoked.id] });
    // Recorded even when already revoked, as the API's tokens.revoke does.
    await appendAuditEvent(tx, {
      actor: OPERATOR_ACTOR,
      action: 'tokens.revoke',
      target: { type: 'api_token', id: revoked.id },
      outcome: 'success',
      data: { kind: revoked.kind, prefix: revoked.prefix, alreadyRevoked },
    });
    return { kind: revoked.kind, alreadyRevoked };
  });
  ctx.print(
    {
      tokenId,
      tenant: tenantSlug,
      kind: token.kind,
      status: token.alreadyRevoked ? 'already revoked' : 'revoked',
    },
    json,
  );
}
