import { randomUUID } from 'node:crypto';
import { type CommandInput, createInvitation } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import { appendAuditEvent } from '../audit/append-audit-event';
import { normalizeEmail } from '../auth/email-address';
import { auditActorOf } from '../auth/audit-actor';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { conflict, forbidden } from '../shared/command-problems';
import { mintInvitationSecret } from './invitation-secret';
import { pendingAt, toInvitationView } from './invitation-views';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { CLOCK, type Clock } from '../infrastructure/command-deps-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

/**
 * `invitations.create`: an owner or admin invites an email with a role. Nothing outside this tenant is read:
 * whether the address has an account (here or anywhere) changes nothing in the answer. Only this tenant's own
 * members are refused (409), which the caller can list anyway. A new invitation supersedes the address's
 * pending ones (revoked in the same transaction), so one link at a time is live per address.
 */
@HandlesCommand(createInvitation)
export class CreateInvitationUseCase implements UseCaseFor<typeof createInvitation> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(CLOCK) private readonly now: Clock = () => new Date(),
  ) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof createInvitation>>) {
    if (principal.userId === null) throw forbidden('Only a person invites.');
    if (input.role === 'owner' && principal.role !== 'owner') throw forbidden('Only owners invite owners.');
    const email = normalizeEmail(input.email);
    const inviter = principal.userId;
    const now = this.now();
    const expiresAt = new Date(now.getTime() + input.expiresInHours * 3_600_000);

    return this.db.withTenant(principal.tenantId, async (tx) => {
      // Users are visible here only through this tenant's memberships (row-level security), so this asks
      // about this tenant alone.
      const member = await tx.membership.findFirst({ where: { user: { email } }, select: { id: true } });
      if (member !== null) throw conflict('This address belongs to a member of this tenant already.');

      const superseded = await tx.invitation.updateMany({
        where: { email, ...pendingAt(now) },
        data: { revokedAt: now, revokedById: inviter },
      });
      const minted = mintInvitationSecret();
      const row = await tx.invitation.create({
        data: {
          id: randomUUID(),
          tenantId: principal.tenantId,
          email,
          role: input.role,
          secretHash: minted.secretHash,
          createdById: inviter,
          createdAt: now,
          expiresAt,
        },
      });
      await appendAuditEvent(tx, {
        actor: auditActorOf(principal),
        action: 'invitations.create',
        target: { type: 'invitation', id: row.id },
        outcome: 'success',
        data: { email, role: row.role, expiresAt: expiresAt.toISOString(), superseded: superseded.count },
      });
      return { invitation: toInvitationView(row, now), secret: minted.secret };
    });
  }
}
