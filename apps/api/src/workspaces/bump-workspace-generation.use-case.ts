import { type CommandInput, bumpWorkspaceGeneration } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import {
  openRequestsAfterChange,
  FAN_OUT_UNIT_OF_WORK,
} from '../approval-requests/open-requests-after-change';
import { appendAuditEvent } from '../audit/append-audit-event';
import { auditActorOf } from '../auth/audit-actor';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { conflict, notFound } from '../shared/command-problems';
import { toWorkspaceView } from '../commands/command-views';
import { DefinitionCipher } from '../effective-view/definition-cipher';
import { findVisibleWorkspace } from '../auth/workspace-visibility';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';
import { appendLeaseChange } from '../revocations/lease-change-event';

/**
 * `workspaces.bumpGeneration`: generation + 1 in one conditional UPDATE. With `expectedGeneration` it is a
 * compare-and-swap: when someone bumped first, nothing changes and the caller gets 409 `conflict`. Approvals of
 * project, local and plugin entries bind to the generation, so a bump makes them stale and opens new requests.
 */
@HandlesCommand(bumpWorkspaceGeneration)
export class BumpWorkspaceGenerationUseCase implements UseCaseFor<typeof bumpWorkspaceGeneration> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(DefinitionCipher) private readonly cipher: DefinitionCipher,
  ) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof bumpWorkspaceGeneration>>) {
    return this.db.withTenant(
      principal.tenantId,
      async (tx) => {
        const before = await findVisibleWorkspace(tx, principal, input.workspaceId);
        const expected = input.expectedGeneration;
        const bumped = await tx.workspace.updateMany({
          where: { id: before.id, ...(expected !== undefined ? { generation: expected } : {}) },
          data: { generation: { increment: 1 }, updatedAt: new Date() },
        });
        if (bumped.count === 0) {
          throw conflict('The workspace is no longer at expectedGeneration: read it again and retry.');
        }
        const workspace = await tx.workspace.findUnique({ where: { id: before.id } });
        if (workspace === null) throw notFound('workspace');
        const scope = { kind: 'workspace', workspaceId: workspace.id } as const;
        await openRequestsAfterChange(tx, this.cipher, principal, scope, 'generation_bumped');
        await appendLeaseChange(tx, 'workspace_generation_changed', { workspaceId: workspace.id });
        await appendAuditEvent(tx, {
          actor: auditActorOf(principal),
          action: 'workspaces.bumpGeneration',
          target: { type: 'workspace', id: workspace.id },
          outcome: 'success',
          data: { from: workspace.generation - 1, to: workspace.generation },
        });
        return toWorkspaceView(workspace);
      },
      FAN_OUT_UNIT_OF_WORK,
    );
  }
}
