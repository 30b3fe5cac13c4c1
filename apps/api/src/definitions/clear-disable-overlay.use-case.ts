import { type CommandInput, clearDisableOverlay } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import {
  changeScopeOfOverlay,
  openRequestsAfterChange,
  FAN_OUT_UNIT_OF_WORK,
} from '../approval-requests/open-requests-after-change';
import { appendAuditEvent } from '../audit/append-audit-event';
import { auditActorOf } from '../auth/audit-actor';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { findVisibleWorkspace } from '../auth/workspace-visibility';
import { assertMayWriteWorkspaceSetting } from './definition-access';
import { callerUserId } from '../auth/principal';
import { DefinitionCipher } from '../effective-view/definition-cipher';
import { Inject } from '@nestjs/common';
import { CatalogRefreshProducer } from '../catalog-refresh-queue/catalog-refresh-producer';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';
import { appendLeaseChange } from '../revocations/lease-change-event';

/** `definitions.overlays.clear`: the entry comes back exactly as resolution gives it. Idempotent. */
@HandlesCommand(clearDisableOverlay)
export class ClearDisableOverlayUseCase implements UseCaseFor<typeof clearDisableOverlay> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(DefinitionCipher) private readonly cipher: DefinitionCipher,
    @Inject(CatalogRefreshProducer) private readonly refreshes: CatalogRefreshProducer,
  ) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof clearDisableOverlay>>) {
    return this.db.withTenant(
      principal.tenantId,
      async (tx) => {
        const workspace = await findVisibleWorkspace(tx, principal, input.workspaceId);
        const userId = input.scope === 'user' ? callerUserId(principal) : null;
        if (userId === null) await assertMayWriteWorkspaceSetting(tx, principal, workspace.id, 'overlays');
        const deleted = await tx.disableOverlay.deleteMany({
          where: {
            workspaceId: workspace.id,
            holder: userId === null ? 'workspace' : `user:${userId}`,
            serverName: input.serverName,
          },
        });
        if (deleted.count > 0) {
          const changed = changeScopeOfOverlay(workspace.id, userId);
          await openRequestsAfterChange(tx, this.cipher, principal, changed, 'overlay_changed', {
            kind: 'overlay_cleared',
            subject: input.serverName,
            scope: null,
          });
          await appendLeaseChange(tx, 'overlay_changed', {
            workspaceId: workspace.id,
            serverName: input.serverName,
            userId,
          });
          // The server is back in the view: if it is still approved, its catalog is discovered again.
          this.refreshes.afterCommitOfChange(
            tx,
            { tenantId: principal.tenantId, scope: changed, authorUserId: principal.userId },
            'definition_changed',
          );
          await appendAuditEvent(tx, {
            actor: auditActorOf(principal),
            action: 'definitions.overlays.clear',
            target: { type: 'workspace', id: workspace.id },
            outcome: 'success',
            data: { scope: input.scope, serverName: input.serverName },
          });
        }
        return {
          workspaceId: workspace.id,
          scope: input.scope,
          serverName: input.serverName,
          disabled: false,
          reason: null,
        };
      },
      FAN_OUT_UNIT_OF_WORK,
    );
  }
}
