import { type CommandInput, removeMember } from '@gatehouse/commands';
import { lockOwnerMemberships, type Database } from '@gatehouse/db';
import { appendAuditEvent } from '../audit/append-audit-event';
import { auditActorOf } from '../auth/audit-actor';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { conflict, forbidden, notFound } from '../shared/command-problems';
import { evictCachedTokens } from '../auth/token-lookup-cache';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';
import { appendLeaseChange } from '../revocations/lease-change-event';

/**
 * `members.remove`: deletes the membership and, in the same transaction, revokes the user's sessions and
 * tokens in this tenant and drops their workspace maintainerships. Other tenants' rows are untouched (row-level
 * security scopes every statement). Only owners remove an owner; the last owner stays.
 */
@HandlesCommand(removeMember)
export class RemoveMemberUseCase implements UseCaseFor<typeof removeMember> {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof removeMember>>) {
    const removedView = await this.db.withTenant(principal.tenantId, async (tx) => {
      const owners = await lockOwnerMemberships(tx);
      const key = { tenantId_userId: { tenantId: principal.tenantId, userId: input.userId } };
      const current = await tx.membership.findUnique({ where: key, select: { role: true } });
      if (current === null) throw notFound('member');
      if (current.role === 'owner' && principal.role !== 'owner')
        throw forbidden('Only owners remove an owner.');
      if (current.role === 'owner' && owners.length <= 1) {
        throw conflict('The last owner cannot be removed: make another member an owner first.');
      }

      const now = new Date();
      await tx.membership.delete({ where: key });
      const sessions = await tx.session.updateMany({
        where: { userId: input.userId, revokedAt: null },
        data: { revokedAt: now },
      });
      const tokens = await tx.apiToken.updateMany({
        where: { userId: input.userId, revokedAt: null },
        data: { revokedAt: now },
      });
      const maintainerships = await tx.workspaceMember.deleteMany({ where: { userId: input.userId } });
      await appendLeaseChange(tx, 'member_changed', { userId: input.userId });
      await appendAuditEvent(tx, {
        actor: auditActorOf(principal),
        action: 'members.remove',
        target: { type: 'user', id: input.userId },
        outcome: 'success',
        data: {
          role: current.role,
          sessionsRevoked: sessions.count,
          apiTokensRevoked: tokens.count,
          maintainershipsRemoved: maintainerships.count,
        },
      });
      return { removed: true };
    });
    // After the commit: this process's cached token lookups go at once (other processes: token-lookup-cache.ts).
    evictCachedTokens({ userIds: [input.userId] });
    return removedView;
  }
}
