import { randomUUID } from 'node:crypto';
import { type CommandInput, setDisableOverlay } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import { checkDisableOverlay } from '@gatehouse/definitions';
import {
  changeScopeOfOverlay,
  openRequestsAfterChange,
  FAN_OUT_UNIT_OF_WORK,
} from '../approval-requests/open-requests-after-change';
import { appendAuditEvent } from '../audit/append-audit-event';
import { auditSafeText } from '../audit/audit-safe-text';
import { auditActorOf } from '../auth/audit-actor';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { ValidationProblemError } from '../shared/command-problems';
import { findVisibleWorkspace } from '../auth/workspace-visibility';
import { assertMayWriteWorkspaceSetting } from './definition-access';
import { callerUserId } from '../auth/principal';
import { DefinitionCipher } from '../effective-view/definition-cipher';
import { resolveWorkspaceView } from '../effective-view/resolved-view';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';
import { appendLeaseChange } from '../revocations/lease-change-event';

/**
 * `definitions.overlays.set`: a workspace overlay (admins, maintainers) or the caller's own. The server must be
 * listed by the view the overlay applies in (the workspace view, or the caller's), else it is refused.
 */
@HandlesCommand(setDisableOverlay)
export class SetDisableOverlayUseCase implements UseCaseFor<typeof setDisableOverlay> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(DefinitionCipher) private readonly cipher: DefinitionCipher,
  ) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof setDisableOverlay>>) {
    return this.db.withTenant(
      principal.tenantId,
      async (tx) => {
        const workspace = await findVisibleWorkspace(tx, principal, input.workspaceId);
        const userId = input.scope === 'user' ? callerUserId(principal) : null;
        if (userId === null) await assertMayWriteWorkspaceSetting(tx, principal, workspace.id, 'overlays');
        const view = await resolveWorkspaceView(tx, this.cipher, {
          tenantId: principal.tenantId,
          workspaceId: workspace.id,
          userId,
        });
        const known = new Set(view.entries.map((entry) => entry.name));
        const scope =
          userId === null ? ({ kind: 'workspace' } as const) : ({ kind: 'user', userId } as const);
        const check = checkDisableOverlay({ serverName: input.serverName, scope }, known);
        if (!check.ok) {
          throw new ValidationProblemError(
            [{ path: 'serverName', message: 'names no server in this view' }],
            'An overlay can only disable a server the effective view lists.',
          );
        }
        const holder = userId === null ? 'workspace' : `user:${userId}`;
        const reason = input.reason === undefined || input.reason === '' ? null : input.reason;
        const key = {
          tenantId: principal.tenantId,
          workspaceId: workspace.id,
          holder,
          serverName: input.serverName,
        };
        // ON CONFLICT DO NOTHING: its count says whether this call created the overlay (and a concurrent set of the
        // same overlay is no unique violation). Setting it again only rewords the reason.
        const created = await tx.disableOverlay.createMany({
          data: [
            {
              id: randomUUID(),
              ...key,
              scope: input.scope,
              userId,
              reason,
              createdBy: principal.userId,
            },
          ],
          skipDuplicates: true,
        });
        const where = { tenantId_workspaceId_holder_serverName: key };
        const row =
          created.count === 1
            ? await tx.disableOverlay.findUniqueOrThrow({ where })
            : await tx.disableOverlay.update({ where, data: { reason } });
        // Only a new overlay re-decides the view (disabling opens nothing for the server itself: a disabled entry is
        // not approvable). Re-setting one that exists changes no decision, and re-running the opener would make the
        // caller an author of whatever it newly opens, which (with four-eyes on) bars them from approving it.
        if (created.count === 1) {
          const changed = changeScopeOfOverlay(workspace.id, userId);
          await openRequestsAfterChange(tx, this.cipher, principal, changed, 'overlay_changed', {
            kind: 'overlay_set',
            subject: input.serverName,
            scope: null,
          });
        }
        if (created.count === 1) {
          await appendLeaseChange(tx, 'overlay_changed', {
            workspaceId: workspace.id,
            serverName: input.serverName,
            userId,
          });
        }
        await appendAuditEvent(tx, {
          actor: auditActorOf(principal),
          action: 'definitions.overlays.set',
          target: { type: 'workspace', id: workspace.id },
          outcome: 'success',
          // The overlay's reason goes wherever the overlay is shown, the audit row included (tenant text: a marker
          // where the audit guard would refuse it).
          data: {
            scope: input.scope,
            serverName: input.serverName,
            reason: reason === null ? null : auditSafeText(reason),
          },
        });
        return {
          workspaceId: workspace.id,
          scope: input.scope,
          serverName: row.serverName,
          disabled: true,
          reason: row.reason,
        };
      },
      FAN_OUT_UNIT_OF_WORK,
    );
  }
}
