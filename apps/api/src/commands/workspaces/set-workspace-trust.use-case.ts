import type { CommandInput, setWorkspaceTrust } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import { appendAuditEvent } from '../../audit/append-audit-event';
import { auditActorOf } from '../audit-actor';
import type { UseCaseArgs, UseCaseFor } from '../command-handler';
import { toWorkspaceView } from '../command-views';
import { findVisibleWorkspace } from './workspace-visibility';

/** `workspaces.setTrust`: idempotent; recorded even when unchanged, so the audit shows who confirmed it. */
export class SetWorkspaceTrustUseCase implements UseCaseFor<typeof setWorkspaceTrust> {
  constructor(private readonly db: Database) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof setWorkspaceTrust>>) {
    return this.db.withTenant(principal.tenantId, async (tx) => {
      const before = await findVisibleWorkspace(tx, principal, input.workspaceId);
      const workspace = await tx.workspace.update({
        where: { id: before.id },
        data: { trusted: input.trusted },
      });
      await appendAuditEvent(tx, {
        actor: auditActorOf(principal),
        action: 'workspaces.setTrust',
        target: { type: 'workspace', id: workspace.id },
        outcome: 'success',
        data: { from: before.trusted, to: workspace.trusted },
      });
      return toWorkspaceView(workspace);
    });
  }
}
