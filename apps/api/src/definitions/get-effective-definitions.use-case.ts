import { type CommandInput, getEffectiveDefinitions } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { findVisibleWorkspace } from '../shared/workspace-visibility';
import { callerUserId } from './definition-access';
import { DefinitionCipher } from './definition-cipher';
import { toActivationView } from '../approvals/activation.view';
import { evaluateWorkspaceView } from '../approvals/workspace-activation';
import { toEffectiveView } from './effective-definitions.loader';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure.tokens';
import { HandlesCommand } from '../commands/registry/handles-command.decorator';

/**
 * `definitions.effective`: the workspace alone (managed, project, plugin), or the caller as principal (every
 * tier, their variables and overlays). Never another user's view: the principal is always the caller. Each entry
 * carries its activation state; reading never opens an approval request.
 */
@HandlesCommand(getEffectiveDefinitions)
export class GetEffectiveDefinitionsUseCase implements UseCaseFor<typeof getEffectiveDefinitions> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(DefinitionCipher) private readonly cipher: DefinitionCipher,
  ) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof getEffectiveDefinitions>>) {
    return this.db.withTenant(principal.tenantId, async (tx) => {
      const workspace = await findVisibleWorkspace(tx, principal, input.workspaceId);
      const userId = input.view === 'principal' ? callerUserId(principal) : null;
      const evaluated = await evaluateWorkspaceView(tx, this.cipher, {
        tenantId: principal.tenantId,
        workspace,
        userId,
      });
      return toEffectiveView(workspace.id, evaluated.result, evaluated.entries.map(toActivationView));
    });
  }
}
