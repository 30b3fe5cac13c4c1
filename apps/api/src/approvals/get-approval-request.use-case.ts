import { type CommandInput, getApprovalRequest } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { approvalIdsOf, findVisibleRequest, fourEyesOf } from './approval-visibility';
import { toApprovalRequestView } from './approval-views';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

/** `approvals.requests.get`: one request with its projection and diff; unknown or not visible is a 404. */
@HandlesCommand(getApprovalRequest)
export class GetApprovalRequestUseCase implements UseCaseFor<typeof getApprovalRequest> {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof getApprovalRequest>>) {
    return this.db.withTenant(principal.tenantId, async (tx) => {
      const row = await findVisibleRequest(tx, principal, input.requestId);
      const approvals = await approvalIdsOf(tx, [row.id]);
      return toApprovalRequestView(
        row,
        approvals.get(row.id) ?? null,
        await fourEyesOf(tx, principal.tenantId),
      );
    });
  }
}
