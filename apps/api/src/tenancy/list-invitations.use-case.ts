import { type CommandInput, listInvitations } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { positionAfter, toPage } from '../shared/pagination/keyset-page';
import { pendingAt, toInvitationView } from './invitation-views';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { CLOCK, type Clock } from '../infrastructure/command-deps-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

const LIST = 'invitations';

/** `invitations.list`: newest first, keyset-paginated on (createdAt, id); pending ones by default. */
@HandlesCommand(listInvitations)
export class ListInvitationsUseCase implements UseCaseFor<typeof listInvitations> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(CLOCK) private readonly now: Clock = () => new Date(),
  ) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof listInvitations>>) {
    const position = positionAfter(LIST, input.cursor);
    const now = this.now();
    const before =
      position === null
        ? {}
        : {
            OR: [{ createdAt: { lt: position.at } }, { createdAt: position.at, id: { lt: position.id } }],
          };
    const rows = await this.db.withTenant(principal.tenantId, (tx) =>
      tx.invitation.findMany({
        where: { AND: [before, input.status === 'pending' ? pendingAt(now) : {}] },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: input.limit + 1,
      }),
    );
    return toPage(
      LIST,
      rows,
      input.limit,
      (row) => ({ at: row.createdAt, id: row.id }),
      (row) => toInvitationView(row, now),
    );
  }
}
