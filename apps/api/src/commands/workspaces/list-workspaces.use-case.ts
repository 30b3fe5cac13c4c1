import type { CommandInput, listWorkspaces } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import type { UseCaseArgs, UseCaseFor } from '../command-handler';
import { toWorkspaceView } from '../command-views';
import { afterPosition, keysetOrder, positionAfter, toPage } from '../pagination/keyset-page';
import { visibleWorkspaces } from './workspace-visibility';

const LIST = 'workspaces';

/** `workspaces.list`: oldest first, keyset-paginated; a workspace-bound credential sees only its own. */
export class ListWorkspacesUseCase implements UseCaseFor<typeof listWorkspaces> {
  constructor(private readonly db: Database) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof listWorkspaces>>) {
    const position = positionAfter(LIST, input.cursor);
    const rows = await this.db.withTenant(principal.tenantId, (tx) =>
      tx.workspace.findMany({
        where: { ...visibleWorkspaces(principal), ...afterPosition(position, 'id') },
        orderBy: keysetOrder('id'),
        take: input.limit + 1,
      }),
    );
    return toPage(LIST, rows, input.limit, (row) => ({ at: row.createdAt, id: row.id }), toWorkspaceView);
  }
}
