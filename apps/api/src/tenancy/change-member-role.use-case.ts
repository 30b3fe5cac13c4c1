import { type CommandInput, changeMemberRole } from '@gatehouse/commands';
import { lockOwnerMemberships, type Database } from '@gatehouse/db';
import { appendAuditEvent } from '../audit/append-audit-event';
import { auditActorOf } from '../auth/audit-actor';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { conflict, forbidden, notFound } from '../shared/command-problems';
import { PERSON, toMemberView } from '../commands/command-views';
import { evictCachedTokens } from '../auth/token-lookup-cache';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';
import { appendLeaseChange } from '../revocations/lease-change-event';

/**
 * `members.changeRole`: only owners grant the owner role or change an owner's role, and the last owner cannot
 * be demoted (the owner lock serializes concurrent demotions). The user's tokens follow at once: their
 * effective scopes are intersected with the CURRENT role on every request.
 */
@HandlesCommand(changeMemberRole)
export class ChangeMemberRoleUseCase implements UseCaseFor<typeof changeMemberRole> {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof changeMemberRole>>) {
    const membershipView = await this.db.withTenant(principal.tenantId, async (tx) => {
      const owners = await lockOwnerMemberships(tx);
      const key = { tenantId_userId: { tenantId: principal.tenantId, userId: input.userId } };
      const current = await tx.membership.findUnique({ where: key, select: { role: true } });
      if (current === null) throw notFound('member');
      if ((current.role === 'owner' || input.role === 'owner') && principal.role !== 'owner') {
        throw forbidden("Only owners grant the owner role or change an owner's role.");
      }
      if (current.role === 'owner' && input.role !== 'owner' && owners.length <= 1) {
        throw conflict('The last owner cannot be demoted: make another member an owner first.');
      }
      const membership = await tx.membership.update({
        where: key,
        data: { role: input.role },
        include: { user: PERSON },
      });
      if (current.role !== input.role)
        await appendLeaseChange(tx, 'member_changed', { userId: input.userId });
      await appendAuditEvent(tx, {
        actor: auditActorOf(principal),
        action: 'members.changeRole',
        target: { type: 'user', id: input.userId },
        outcome: 'success',
        data: { from: current.role, to: input.role },
      });
      return toMemberView(membership);
    });
    // After the commit: this process's cached token lookups go at once (other processes: token-lookup-cache.ts).
    evictCachedTokens({ userIds: [input.userId] });
    return membershipView;
  }
}
