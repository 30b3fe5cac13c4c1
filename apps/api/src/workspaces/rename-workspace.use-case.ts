import { type CommandInput, renameWorkspace } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import { appendAuditEvent } from '../audit/append-audit-event';
import { auditActorOf } from '../auth/audit-actor';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { toWorkspaceView } from '../commands/command-views';
import { findVisibleWorkspace } from '../auth/workspace-visibility';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

/** `workspaces.rename`: a taken name is a 409 from the unique index. */
@HandlesCommand(renameWorkspace)
export class RenameWorkspaceUseCase implements UseCaseFor<typeof renameWorkspace> {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof renameWorkspace>>) {
    return this.db.withTenant(principal.tenantId, async (tx) => {
      const before = await findVisibleWorkspace(tx, principal, input.workspaceId);
      const workspace = await tx.workspace.update({ where: { id: before.id }, data: { name: input.name } });
      await appendAuditEvent(tx, {
        actor: auditActorOf(principal),
        action: 'workspaces.rename',
        target: { type: 'workspace', id: workspace.id },
        outcome: 'success',
        data: { from: before.name, to: workspace.name },
      });
      return toWorkspaceView(workspace);
    });
  }
}
