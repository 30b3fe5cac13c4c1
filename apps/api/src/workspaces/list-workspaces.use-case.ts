import { type CommandInput, listWorkspaces } from '@gatehouse/commands';
import { findWorkspacePage, type Database } from '@gatehouse/db';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { toWorkspaceView } from '../commands/command-views';
import { positionAfter, toPage } from '../shared/pagination/keyset-page';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

const LIST = 'workspaces';

/** `workspaces.list`: oldest first, keyset-paginated; a workspace-bound credential sees only its own. */
@HandlesCommand(listWorkspaces)
export class ListWorkspacesUseCase implements UseCaseFor<typeof listWorkspaces> {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof listWorkspaces>>) {
    const position = positionAfter(LIST, input.cursor);
    // The authenticated hot path: one round trip with the tenant context (libs/db readInTenant), the same rows
    // as withTenant + workspace.findMany with visibleWorkspaces/afterPosition/keysetOrder.
    const rows = await findWorkspacePage(this.db, principal.tenantId, {
      after: position,
      take: input.limit + 1,
      onlyIds: principal.workspaceIds,
    });
    return toPage(LIST, rows, input.limit, (row) => ({ at: row.createdAt, id: row.id }), toWorkspaceView);
  }
}
