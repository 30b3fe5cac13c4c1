import { type CommandInput, addWorkspaceMaintainer } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import { appendAuditEvent } from '../audit/append-audit-event';
import { auditActorOf } from '../auth/audit-actor';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { notFound } from '../shared/command-problems';
import { PERSON, toMaintainerView } from '../commands/command-views';
import { findVisibleWorkspace } from '../auth/workspace-visibility';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

/**
 * `workspaces.maintainers.add`: only a member of this tenant can maintain one of its workspaces (anyone else
 * is a 404, like any user id this tenant cannot see). Adding twice is a 409 from the primary key.
 */
@HandlesCommand(addWorkspaceMaintainer)
export class AddWorkspaceMaintainerUseCase implements UseCaseFor<typeof addWorkspaceMaintainer> {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof addWorkspaceMaintainer>>) {
    return this.db.withTenant(principal.tenantId, async (tx) => {
      const workspace = await findVisibleWorkspace(tx, principal, input.workspaceId);
      const membership = await tx.membership.findUnique({
        where: { tenantId_userId: { tenantId: principal.tenantId, userId: input.userId } },
        select: { id: true },
      });
      if (membership === null) throw notFound('member');
      const maintainer = await tx.workspaceMember.create({
        data: { tenantId: principal.tenantId, workspaceId: workspace.id, userId: input.userId },
        include: { user: PERSON },
      });
      await appendAuditEvent(tx, {
        actor: auditActorOf(principal),
        action: 'workspaces.maintainers.add',
        target: { type: 'workspace', id: workspace.id },
        outcome: 'success',
        data: { userId: input.userId },
      });
      return toMaintainerView(maintainer);
    });
  }
}
