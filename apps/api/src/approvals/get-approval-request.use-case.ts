import type { CommandInput, getApprovalRequest } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { approvalIdsOf, findVisibleRequest } from './approval-visibility';
import { toApprovalRequestView } from './approval.views';

/** `approvals.requests.get`: one request with its projection and diff; unknown or not visible is a 404. */
export class GetApprovalRequestUseCase implements UseCaseFor<typeof getApprovalRequest> {
  constructor(private readonly db: Database) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof getApprovalRequest>>) {
    return this.db.withTenant(principal.tenantId, async (tx) => {
      const row = await findVisibleRequest(tx, principal, input.requestId);
      const approvals = await approvalIdsOf(tx, [row.id]);
      return toApprovalRequestView(row, approvals.get(row.id) ?? null);
    });
  }
}
