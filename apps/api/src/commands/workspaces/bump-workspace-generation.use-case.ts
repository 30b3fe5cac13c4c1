import type { CommandInput, bumpWorkspaceGeneration } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import { appendAuditEvent } from '../../audit/append-audit-event';
import { auditActorOf } from '../audit-actor';
import type { UseCaseArgs, UseCaseFor } from '../command-handler';
import { conflict, notFound } from '../command-problems';
import { toWorkspaceView } from '../command-views';
import { findVisibleWorkspace } from './workspace-visibility';

/**
 * `workspaces.bumpGeneration`: generation + 1 in one conditional UPDATE. With `expectedGeneration` it is a
 * compare-and-swap: when someone bumped first, nothing changes and the caller gets 409 `conflict`.
 */
export class BumpWorkspaceGenerationUseCase implements UseCaseFor<typeof bumpWorkspaceGeneration> {
  constructor(private readonly db: Database) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof bumpWorkspaceGeneration>>) {
    return this.db.withTenant(principal.tenantId, async (tx) => {
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
      await appendAuditEvent(tx, {
        actor: auditActorOf(principal),
        action: 'workspaces.bumpGeneration',
        target: { type: 'workspace', id: workspace.id },
        outcome: 'success',
        data: { from: workspace.generation - 1, to: workspace.generation },
      });
      return toWorkspaceView(workspace);
    });
  }
}
