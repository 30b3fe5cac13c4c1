import { type CommandInput, listWorkspaceMaintainers } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { PERSON, toMaintainerView } from '../commands/command-views';
import { afterPosition, keysetOrder, positionAfter, toPage } from '../shared/pagination/keyset-page';
import { findVisibleWorkspace } from '../auth/workspace-visibility';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

const LIST = 'maintainers';

/** `workspaces.maintainers.list`: keyset over (since, userId). */
@HandlesCommand(listWorkspaceMaintainers)
export class ListWorkspaceMaintainersUseCase implements UseCaseFor<typeof listWorkspaceMaintainers> {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof listWorkspaceMaintainers>>) {
    const position = positionAfter(LIST, input.cursor);
    const rows = await this.db.withTenant(principal.tenantId, async (tx) => {
      const workspace = await findVisibleWorkspace(tx, principal, input.workspaceId);
      return tx.workspaceMember.findMany({
        where: { workspaceId: workspace.id, ...afterPosition(position, 'userId') },
        orderBy: keysetOrder('userId'),
        take: input.limit + 1,
        include: { user: PERSON },
      });
    });
    return toPage(
      LIST,
      rows,
      input.limit,
      (row) => ({ at: row.createdAt, id: row.userId }),
      toMaintainerView,
    );
  }
}
