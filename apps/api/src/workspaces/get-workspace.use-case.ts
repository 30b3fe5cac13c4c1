import { type CommandInput, getWorkspace } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { toWorkspaceView } from '../commands/command-views';
import { findVisibleWorkspace } from '../auth/workspace-visibility';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

/** `workspaces.get`: another tenant's id, or one outside the credential's binding, is a 404. */
@HandlesCommand(getWorkspace)
export class GetWorkspaceUseCase implements UseCaseFor<typeof getWorkspace> {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof getWorkspace>>) {
    const workspace = await this.db.withTenant(principal.tenantId, (tx) =>
      findVisibleWorkspace(tx, principal, input.workspaceId),
    );
    return toWorkspaceView(workspace);
  }
}
