import { type CommandInput, revokeInvitation } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import { appendAuditEvent } from '../audit/append-audit-event';
import { auditActorOf } from '../auth/audit-actor';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { conflict, notFound } from '../shared/command-problems';
import { invitationStatusOf, pendingAt, toInvitationView } from './invitation-views';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { CLOCK, type Clock } from '../infrastructure/command-deps-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

/**
 * `invitations.revoke`: a pending invitation stops working at once (the accept path re-checks the row under
 * the same condition, so a revoke and an accept racing each other cannot both win). Another tenant's id is a
 * 404 (row-level security hides it); an invitation that is no longer pending is a 409.
 */
@HandlesCommand(revokeInvitation)
export class RevokeInvitationUseCase implements UseCaseFor<typeof revokeInvitation> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(CLOCK) private readonly now: Clock = () => new Date(),
  ) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof revokeInvitation>>) {
    const now = this.now();
    return this.db.withTenant(principal.tenantId, async (tx) => {
      const revoked = await tx.invitation.updateMany({
        where: { id: input.invitationId, ...pendingAt(now) },
        data: { revokedAt: now, revokedById: principal.userId },
      });
      const row = await tx.invitation.findUnique({ where: { id: input.invitationId } });
      if (row === null) throw notFound('invitation');
      if (revoked.count === 0) {
        throw conflict(
          `This invitation is ${invitationStatusOf(row, now)}: only a pending one can be revoked.`,
        );
      }
      await appendAuditEvent(tx, {
        actor: auditActorOf(principal),
        action: 'invitations.revoke',
        target: { type: 'invitation', id: row.id },
        outcome: 'success',
        data: { email: row.email, role: row.role },
      });
      return toInvitationView(row, now);
    });
  }
}
