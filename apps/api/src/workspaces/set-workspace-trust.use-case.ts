import { type CommandInput, setWorkspaceTrust } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import {
  openRequestsAfterChange,
  FAN_OUT_UNIT_OF_WORK,
} from '../approval-requests/open-requests-after-change';
import { appendAuditEvent } from '../audit/append-audit-event';
import { auditActorOf } from '../auth/audit-actor';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { toWorkspaceView } from '../commands/command-views';
import { DefinitionCipher } from '../effective-view/definition-cipher';
import { findVisibleWorkspace } from '../auth/workspace-visibility';
import { Inject } from '@nestjs/common';
import { CatalogRefreshProducer } from '../catalog-refresh-queue/catalog-refresh-producer';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';
import { appendLeaseChange } from '../revocations/lease-change-event';

/** `workspaces.setTrust`: idempotent; recorded even when unchanged, so the audit shows who confirmed it. */
@HandlesCommand(setWorkspaceTrust)
export class SetWorkspaceTrustUseCase implements UseCaseFor<typeof setWorkspaceTrust> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(DefinitionCipher) private readonly cipher: DefinitionCipher,
    @Inject(CatalogRefreshProducer) private readonly refreshes: CatalogRefreshProducer,
  ) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof setWorkspaceTrust>>) {
    return this.db.withTenant(
      principal.tenantId,
      async (tx) => {
        const before = await findVisibleWorkspace(tx, principal, input.workspaceId);
        const workspace = await tx.workspace.update({
          where: { id: before.id },
          data: { trusted: input.trusted },
        });
        // Only a real change re-decides the workspace. Confirming the trust it already has changes no decision, and
        // re-running the opener would add the confirmer as an author of every request already open there, which
        // (with four-eyes on) would bar them from approving changes they never made.
        if (before.trusted !== workspace.trusted) {
          const scope = { kind: 'workspace', workspaceId: workspace.id } as const;
          await openRequestsAfterChange(tx, this.cipher, principal, scope, 'trust_changed');
          await appendLeaseChange(tx, 'workspace_trust_changed', { workspaceId: workspace.id });
          // Trust given back makes the workspace's approvals hold again: their catalogs are discovered anew.
          if (workspace.trusted)
            this.refreshes.afterCommitOfChange(
              tx,
              { tenantId: principal.tenantId, scope, authorUserId: principal.userId },
              'definition_changed',
            );
        }
        await appendAuditEvent(tx, {
          actor: auditActorOf(principal),
          action: 'workspaces.setTrust',
          target: { type: 'workspace', id: workspace.id },
          outcome: 'success',
          data: { from: before.trusted, to: workspace.trusted },
        });
        return toWorkspaceView(workspace);
      },
      FAN_OUT_UNIT_OF_WORK,
    );
  }
}
