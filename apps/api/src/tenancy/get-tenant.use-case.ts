import { type CommandInput, getTenant } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { notFound } from '../shared/command-problems';
import { toTenantView } from '../commands/command-views';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

/** `tenant.get`: the caller's own tenant (there is no way to name another one). */
@HandlesCommand(getTenant)
export class GetTenantUseCase implements UseCaseFor<typeof getTenant> {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async execute({ principal }: UseCaseArgs<CommandInput<typeof getTenant>>) {
    const tenant = await this.db.withTenant(principal.tenantId, (tx) =>
      tx.tenant.findUnique({ where: { id: principal.tenantId } }),
    );
    if (tenant === null) throw notFound('tenant');
    return toTenantView(tenant);
  }
}
