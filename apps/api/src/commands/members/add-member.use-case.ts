import { randomUUID } from 'node:crypto';
import type { CommandInput, addMember } from '@gatehouse/commands';
import { findLoginByEmail, type Database } from '@gatehouse/db';
import { appendAuditEvent } from '../../audit/append-audit-event';
import { normalizeEmail } from '../../identity/email-address';
import { auditActorOf } from '../audit-actor';
import type { UseCaseArgs, UseCaseFor } from '../command-handler';
import { forbidden, notFound } from '../command-problems';
import { PERSON, toMemberView } from '../command-views';

/**
 * `members.add`: gives an existing account a role here. The account is found through the login lookup (users
 * are invisible to a tenant until they are members); a second membership is a 409 from the unique index.
 */
export class AddMemberUseCase implements UseCaseFor<typeof addMember> {
  constructor(private readonly db: Database) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof addMember>>) {
    if (input.role === 'owner' && principal.role !== 'owner')
      throw forbidden('Only owners grant the owner role.');
    const login = await findLoginByEmail(this.db, normalizeEmail(input.email));
    if (login === null || login.disabledAt !== null) throw notFound('account');
    const userId = login.userId;

    return this.db.withTenant(principal.tenantId, async (tx) => {
      const membership = await tx.membership.create({
        data: { id: randomUUID(), tenantId: principal.tenantId, userId, role: input.role },
        include: { user: PERSON },
      });
      await appendAuditEvent(tx, {
        actor: auditActorOf(principal),
        action: 'members.add',
        target: { type: 'user', id: userId },
        outcome: 'success',
        data: { role: input.role },
      });
      return toMemberView(membership);
    });
  }
}
