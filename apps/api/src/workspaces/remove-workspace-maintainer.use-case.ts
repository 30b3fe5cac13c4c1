import { type CommandInput, removeWorkspaceMaintainer } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import { appendAuditEvent } from '../audit/append-audit-event';
import { auditActorOf } from '../auth/audit-actor';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { notFound } from '../shared/command-problems';
import { findVisibleWorkspace } from '../auth/workspace-visibility';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

/** `workspaces.maintainers.remove`: a user who is not a maintainer of the workspace is a 404. */
@HandlesCommand(removeWorkspaceMaintainer)
export class RemoveWorkspaceMaintainerUseCase implements UseCaseFor<typeof removeWorkspaceMaintainer> {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof removeWorkspaceMaintainer>>) {
    return this.db.withTenant(principal.tenantId, async (tx) => {
      const workspace = await findVisibleWorkspace(tx, principal, input.workspaceId);
      const removed = await tx.workspaceMember.deleteMany({
        where: { workspaceId: workspace.id, userId: input.userId },
      });
      if (removed.count === 0) throw notFound('maintainer');
      await appendAuditEvent(tx, {
        actor: auditActorOf(principal),
        action: 'workspaces.maintainers.remove',
        target: { type: 'workspace', id: workspace.id },
        outcome: 'success',
        data: { userId: input.userId },
      });
      return { removed: true };
    });
  }
}
