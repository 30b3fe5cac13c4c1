import { type CommandInput, listApprovalRequests } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { positionAfter, toPage } from '../shared/pagination/keyset-page';
import { approvalIdsOf, fourEyesOf, workspaceFilter } from './approval-visibility';
import { toApprovalRequestView } from './approval-views';
import { newestFirst, olderThan } from '../shared/pagination/keyset-newest-first';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

const LIST = 'approval-requests';

type Status = CommandInput<typeof listApprovalRequests>['status'];

type ClosedStatus = 'decided' | 'superseded' | 'withdrawn';

function statusFilter(status: Status): { status?: 'open' | { in: ClosedStatus[] } } {
  switch (status) {
    case 'open':
      return { status: 'open' };
    case 'closed':
      return { status: { in: ['decided', 'superseded', 'withdrawn'] } };
    case 'all':
      return {};
    default: {
      const unreachable: never = status;
      throw new Error(`unknown status ${String(unreachable)}`);
    }
  }
}

/**
 * `approvals.requests.list`: the queue (open, the default) or the history (closed), newest first with an opaque
 * cursor. Each item names the decision recorded for it.
 */
@HandlesCommand(listApprovalRequests)
export class ListApprovalRequestsUseCase implements UseCaseFor<typeof listApprovalRequests> {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof listApprovalRequests>>) {
    const position = positionAfter(LIST, input.cursor);
    return this.db.withTenant(principal.tenantId, async (tx) => {
      const rows = await tx.approvalRequest.findMany({
        where: {
          ...(await workspaceFilter(tx, principal, input.workspaceId)),
          ...statusFilter(input.status),
          ...(input.serverName !== undefined ? { serverName: input.serverName } : {}),
          ...olderThan(position, 'openedAt'),
        },
        orderBy: newestFirst('openedAt'),
        take: input.limit + 1,
      });
      const approvals = await approvalIdsOf(
        tx,
        rows.slice(0, input.limit).map((row) => row.id),
      );
      const fourEyes = await fourEyesOf(tx, principal.tenantId);
      return toPage(
        LIST,
        rows,
        input.limit,
        (row) => ({ at: row.openedAt, id: row.id }),
        (row) => toApprovalRequestView(row, approvals.get(row.id) ?? null, fourEyes),
      );
    });
  }
}
