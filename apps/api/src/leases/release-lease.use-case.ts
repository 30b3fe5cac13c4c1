import { releaseLease, type CommandInput, type CommandOutput } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import { Inject } from '@nestjs/common';
import { appendAuditEvent, lockAuditChain } from '../audit/append-audit-event';
import type { WorkerPools } from '../auth/pool-config';
import type { Principal } from '../auth/principal';
import type { UseCase, UseCaseArgs } from '../commands/command-handler';
import { notFound } from '../shared/command-problems';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';
import { CLOCK, WORKER_POOLS, type Clock } from '../infrastructure/command-deps-tokens';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { leaseCallerForLease } from '../held-leases/lease-caller';
import { leaseStateOf } from './lease-state-view';
import { leaseAuditEvent } from './lease-audit';

type Input = CommandInput<typeof releaseLease>;
type Output = CommandOutput<typeof releaseLease>;

/**
 * `leases.release`: only by the token that holds the lease (any other token gets 404). Idempotent: the first
 * release records the time and is audited; releasing again answers the same state and writes nothing.
 */
@HandlesCommand(releaseLease)
export class ReleaseLeaseUseCase implements UseCase<Input, Output> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(WORKER_POOLS) private readonly pools: WorkerPools,
    @Inject(CLOCK) private readonly clock: Clock = () => new Date(),
  ) {}

  async execute({ principal, input }: UseCaseArgs<Input, Principal>): Promise<Output> {
    const caller = await leaseCallerForLease(this.db, this.pools, principal, input.leaseId);
    const now = this.clock();
    return this.db.withTenant(caller.tenantId, async (tx) => {
      // The audit head before the lease row: the one lock order of lease writers (decision 0071).
      await lockAuditChain(tx);
      const lease = await tx.lease.findFirst({ where: { id: input.leaseId, tokenId: caller.tokenId } });
      if (lease === null) throw notFound('lease');
      if (lease.releasedAt !== null) return leaseStateOf(lease);
      const released = await tx.lease.update({ where: { id: lease.id }, data: { releasedAt: now } });
      await appendAuditEvent(
        tx,
        leaseAuditEvent(
          caller,
          'leases.released',
          lease.id,
          {
            workspaceId: lease.workspaceId,
            serverName: lease.serverName,
            principalUserId: lease.principalUserId,
          },
          { definitionFingerprint: lease.definitionFingerprint },
        ),
      );
      return leaseStateOf(released);
    });
  }
}
