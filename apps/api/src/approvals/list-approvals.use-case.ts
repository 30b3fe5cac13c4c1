import { type CommandInput, listApprovals } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { positionAfter, toPage } from '../shared/pagination/keyset-page';
import { workspaceFilter } from './approval-visibility';
import { toApprovalView } from './approval-views';
import { newestFirst, olderThan } from '../shared/pagination/keyset-newest-first';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

const LIST = 'approvals';

type State = CommandInput<typeof listApprovals>['state'];

function stateFilter(state: State): { revokedAt?: null | { not: null } } {
  switch (state) {
    case 'active':
      return { revokedAt: null };
    case 'revoked':
      return { revokedAt: { not: null } };
    case 'all':
      return {};
    default: {
      const unreachable: never = state;
      throw new Error(`unknown state ${String(unreachable)}`);
    }
  }
}

/** `approvals.list`: recorded decisions, newest first with an opaque cursor. */
@HandlesCommand(listApprovals)
export class ListApprovalsUseCase implements UseCaseFor<typeof listApprovals> {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof listApprovals>>) {
    const position = positionAfter(LIST, input.cursor);
    return this.db.withTenant(principal.tenantId, async (tx) => {
      const rows = await tx.approval.findMany({
        where: {
          ...(await workspaceFilter(tx, principal, input.workspaceId)),
          ...stateFilter(input.state),
          ...(input.serverName !== undefined ? { serverName: input.serverName } : {}),
          ...olderThan(position, 'decidedAt'),
        },
        orderBy: newestFirst('decidedAt'),
        take: input.limit + 1,
      });
      return toPage(LIST, rows, input.limit, (row) => ({ at: row.decidedAt, id: row.id }), toApprovalView);
    });
  }
}
