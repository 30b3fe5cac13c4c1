import { type CommandInput, getHostPolicy } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import type { WorkerPools } from '../auth/pool-config';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { toHostPolicyView } from './host-policy-view';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { WORKER_POOLS } from '../infrastructure/command-deps-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

/** `hostPolicy.get`: the tenant's HostPolicy and the ceiling of each pool open to it (tenant:write: admins). */
@HandlesCommand(getHostPolicy)
export class GetHostPolicyUseCase implements UseCaseFor<typeof getHostPolicy> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(WORKER_POOLS) private readonly pools: WorkerPools,
  ) {}

  async execute({ principal }: UseCaseArgs<CommandInput<typeof getHostPolicy>>) {
    const row = await this.db.withTenant(principal.tenantId, (tx) =>
      tx.hostPolicy.findUnique({ where: { tenantId: principal.tenantId } }),
    );
    return toHostPolicyView(row, this.pools, principal.tenantSlug);
  }
}
