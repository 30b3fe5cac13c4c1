import { type CommandInput, getAuditHead } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { GENESIS_HASH, toHex } from './audit-chain-encoding';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

/**
 * `audit.head`, the export endpoint: the tenant's current chain head, to be stored outside Gatehouse and given
 * back to `audit.verify` as a checkpoint later. A tenant with no events yet has seq 0 and the genesis hash; `at`
 * is when the head last moved (or now, for an empty chain).
 */
@HandlesCommand(getAuditHead)
export class GetAuditHeadUseCase implements UseCaseFor<typeof getAuditHead> {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async execute({ principal }: UseCaseArgs<CommandInput<typeof getAuditHead>>) {
    const head = await this.db.withTenant(principal.tenantId, (tx) =>
      tx.auditHead.findUnique({ where: { tenantId: principal.tenantId } }),
    );
    return {
      tenantId: principal.tenantId,
      seq: Number(head?.seq ?? 0n),
      hash: toHex(head?.hash ?? GENESIS_HASH),
      at: (head?.updatedAt ?? new Date()).toISOString(),
    };
  }
}
