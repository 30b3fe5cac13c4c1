import { type CommandInput, listMembers } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { PERSON, toMemberView } from '../commands/command-views';
import { afterPosition, keysetOrder, positionAfter, toPage } from '../shared/pagination/keyset-page';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

const LIST = 'members';

/** `members.list`: oldest membership first, keyset-paginated. */
@HandlesCommand(listMembers)
export class ListMembersUseCase implements UseCaseFor<typeof listMembers> {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof listMembers>>) {
    const position = positionAfter(LIST, input.cursor);
    const rows = await this.db.withTenant(principal.tenantId, (tx) =>
      tx.membership.findMany({
        where: afterPosition(position, 'id'),
        orderBy: keysetOrder('id'),
        take: input.limit + 1,
        include: { user: PERSON },
      }),
    );
    return toPage(LIST, rows, input.limit, (row) => ({ at: row.createdAt, id: row.id }), toMemberView);
  }
}
