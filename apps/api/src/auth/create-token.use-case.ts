import { type CommandInput, createToken } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import { appendAuditEvent } from '../audit/append-audit-event';
import { existingWorkspaceIds, mintApiToken, tokenExpiry } from './mint-api-token';
import type { WorkerPools } from './pool-config';
import { decideTokenCreation } from './token-creation.policy';
import { tokenCreationProblem } from './token-creation-problems';
import { auditActorOf } from './audit-actor';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { toTokenView } from '../commands/command-views';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { WORKER_POOLS } from '../infrastructure/command-deps-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

/**
 * `tokens.create`: the identity policy decides (kind ceiling, the creator's role and credential, workspace and
 * pool bindings), `mintApiToken` stores only the hash, and the secret goes back once (the REST route sends it
 * with `Cache-Control: no-store`). A workspace-bound creator can bind a new token only to its own workspaces.
 */
@HandlesCommand(createToken)
export class CreateTokenUseCase implements UseCaseFor<typeof createToken> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(WORKER_POOLS) private readonly pools: WorkerPools,
  ) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof createToken>>) {
    const workspaceIds = input.workspaceIds ?? [];
    return this.db.withTenant(principal.tenantId, async (tx) => {
      const existing = await existingWorkspaceIds(tx, workspaceIds);
      const bound = principal.workspaceIds;
      const reachable =
        bound.length > 0 ? new Set([...existing].filter((id) => bound.includes(id))) : existing;
      const decision = decideTokenCreation(
        principal,
        { kind: input.kind, scopes: input.scopes, workspaceIds, pool: input.pool ?? null },
        { pools: this.pools, existingWorkspaceIds: reachable },
      );
      if (!decision.ok) throw tokenCreationProblem(decision);

      const minted = await mintApiToken(tx, {
        tenantId: principal.tenantId,
        createdById: principal.userId,
        name: input.name,
        grant: decision.grant,
        expiresAt: tokenExpiry(input.expiresInDays),
      });
      await appendAuditEvent(tx, {
        actor: auditActorOf(principal),
        action: 'tokens.create',
        target: { type: 'api_token', id: minted.token.id },
        outcome: 'success',
        data: {
          kind: minted.token.kind,
          prefix: minted.token.prefix,
          scopes: minted.token.scopes,
          workspaceIds: minted.token.workspaceIds,
          pool: minted.token.pool,
          expiresAt: minted.token.expiresAt?.toISOString() ?? null,
        },
      });
      return { token: toTokenView(minted.token), secret: minted.secret };
    });
  }
}
