import { randomUUID } from 'node:crypto';
import { type CommandInput, createWorkspace } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import { appendAuditEvent } from '../audit/append-audit-event';
import { auditActorOf } from '../auth/audit-actor';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { toWorkspaceView } from '../commands/command-views';
import { assertNotWorkspaceBound } from '../auth/workspace-visibility';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

/** `workspaces.create`: untrusted, generation 1. A taken name is a 409 from the unique index. */
@HandlesCommand(createWorkspace)
export class CreateWorkspaceUseCase implements UseCaseFor<typeof createWorkspace> {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof createWorkspace>>) {
    assertNotWorkspaceBound(principal);
    return this.db.withTenant(principal.tenantId, async (tx) => {
      const workspace = await tx.workspace.create({
        data: {
          id: randomUUID(),
          tenantId: principal.tenantId,
          name: input.name,
          repositoryIdentity: input.repositoryIdentity ?? null,
        },
      });
      await appendAuditEvent(tx, {
        actor: auditActorOf(principal),
        action: 'workspaces.create',
        target: { type: 'workspace', id: workspace.id },
        outcome: 'success',
        data: { name: workspace.name, repositoryIdentity: workspace.repositoryIdentity },
      });
      return toWorkspaceView(workspace);
    });
  }
}
