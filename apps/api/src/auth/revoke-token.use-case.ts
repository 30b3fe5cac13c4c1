import { type CommandInput, revokeToken } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import { appendAuditEvent } from '../audit/append-audit-event';
import { auditActorOf } from './audit-actor';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { notFound } from '../shared/command-problems';
import { toTokenView } from '../commands/command-views';
import { visibleTokens } from './visible-tokens';
import { evictCachedTokens } from './token-lookup-cache';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';
import { appendLeaseChange } from '../revocations/lease-change-event';

/**
 * `tokens.revoke`: idempotent (revoking a revoked token returns it unchanged, and is still recorded). Members
 * revoke only their own tokens; anyone else's reads as a 404, exactly as in the list.
 */
@HandlesCommand(revokeToken)
export class RevokeTokenUseCase implements UseCaseFor<typeof revokeToken> {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof revokeToken>>) {
    const tokenView = await this.db.withTenant(principal.tenantId, async (tx) => {
      const found = await tx.apiToken.findFirst({
        where: { id: input.tokenId, ...visibleTokens(principal) },
      });
      if (found === null) throw notFound('token');
      const alreadyRevoked = found.revokedAt !== null;
      const token = alreadyRevoked
        ? found
        : await tx.apiToken.update({ where: { id: found.id }, data: { revokedAt: new Date() } });
      if (!alreadyRevoked) await appendLeaseChange(tx, 'token_revoked', { tokenIds: [token.id] });
      await appendAuditEvent(tx, {
        actor: auditActorOf(principal),
        action: 'tokens.revoke',
        target: { type: 'api_token', id: token.id },
        outcome: 'success',
        data: { kind: token.kind, prefix: token.prefix, alreadyRevoked },
      });
      return toTokenView(token);
    });
    // After the commit: this process's cached token lookups go at once (other processes: token-lookup-cache.ts).
    evictCachedTokens({ tokenIds: [input.tokenId] });
    return tokenView;
  }
}
