import { type CommandInput, revokeApproval } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import { appendAuditEvent } from '../audit/append-audit-event';
import { auditSafeText } from '../audit/audit-safe-text';
import { auditActorOf, isTenantAdmin } from '../auth/audit-actor';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { forbidden } from '../shared/command-problems';
import { identityAuditData } from '../approval-requests/approval-identity-audit';
import { alreadyRevoked } from './approval-problems';
import { findVisibleApproval } from './approval-visibility';
import { identityOfRow } from '../effective-view/activation-inputs';
import { toApprovalView } from './approval-views';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';
import { appendLeaseChange } from '../revocations/lease-change-event';

/**
 * `approvals.revoke`: owners and admins withdraw a decision; from then on it no longer holds (revoked wins over
 * approved). Only revoked_at/revoked_by/revoke_reason change: the app role may update nothing else on an approval.
 * The reason is required: whoever relied on the approval learns why it stopped holding.
 */
@HandlesCommand(revokeApproval)
export class RevokeApprovalUseCase implements UseCaseFor<typeof revokeApproval> {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof revokeApproval>>) {
    return this.db.withTenant(principal.tenantId, async (tx) => {
      const found = await findVisibleApproval(tx, principal, input.approvalId);
      if (!isTenantAdmin(principal) || principal.userId === null)
        throw forbidden('Only owners and admins revoke approvals.');
      if (found.revokedAt !== null) throw alreadyRevoked();
      // Compare-and-swap: of two concurrent revocations, one records itself; the other is told it came second.
      const updated = await tx.approval.updateMany({
        where: { id: found.id, revokedAt: null },
        data: { revokedAt: new Date(), revokedBy: principal.userId, revokeReason: input.reason },
      });
      if (updated.count !== 1) throw alreadyRevoked();
      const approval = await tx.approval.findUniqueOrThrow({ where: { id: found.id } });
      await appendLeaseChange(tx, 'approval_revoked', {
        approvalId: approval.id,
        workspaceId: approval.workspaceId,
        serverName: approval.serverName,
      });
      await appendAuditEvent(tx, {
        actor: auditActorOf(principal),
        action: 'approvals.revoked',
        target: { type: 'approval', id: approval.id },
        outcome: 'success',
        data: {
          workspaceId: approval.workspaceId,
          requestId: approval.requestId,
          decision: approval.decision,
          reason: auditSafeText(input.reason),
          ...identityAuditData(identityOfRow(approval)),
        },
      });
      return toApprovalView(approval);
    });
  }
}
