import { type CommandInput, acceptInvitation } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import { auditActorOf } from '../auth/audit-actor';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { forbidden } from '../shared/command-problems';
import { joinRefusalProblem, unusableInvitation } from './invitation-problems';
import { findUsableInvitation, joinInvitedTenant } from './join-invited-tenant';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { CLOCK, type Clock } from '../infrastructure/command-deps-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

/**
 * `invitations.accept`: the signed-in person (a session, or their own user token) accepts an invitation of
 * another tenant. Their account's email must be the invited one; any other outcome but "already a member" is
 * the same 404 as an unknown link.
 */
@HandlesCommand(acceptInvitation)
export class AcceptInvitationUseCase implements UseCaseFor<typeof acceptInvitation> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(CLOCK) private readonly now: Clock = () => new Date(),
  ) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof acceptInvitation>>) {
    if (principal.userId === null) throw forbidden('Only a person accepts an invitation.');
    const now = this.now();
    const invitation = await findUsableInvitation(this.db, input.secret, now);
    if (invitation === null) throw unusableInvitation();
    const joined = await joinInvitedTenant(this.db, {
      invitation,
      userId: principal.userId,
      actor: { ...auditActorOf(principal), type: 'user', id: principal.userId },
      now,
    });
    if (!joined.ok) throw joinRefusalProblem(joined.reason);
    return { tenant: joined.tenant, role: joined.role, joinedAt: joined.joinedAt.toISOString() };
  }
}
