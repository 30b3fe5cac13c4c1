import { type CommandInput, renameTenant } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import { appendAuditEvent } from '../audit/append-audit-event';
import { auditActorOf } from '../auth/audit-actor';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { notFound } from '../shared/command-problems';
import { toTenantView } from '../commands/command-views';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

/** `tenant.rename`: the display name only; the slug (in URLs and pool config) never changes. */
@HandlesCommand(renameTenant)
export class RenameTenantUseCase implements UseCaseFor<typeof renameTenant> {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof renameTenant>>) {
    return this.db.withTenant(principal.tenantId, async (tx) => {
      const before = await tx.tenant.findUnique({
        where: { id: principal.tenantId },
        select: { name: true },
      });
      if (before === null) throw notFound('tenant');
      const tenant = await tx.tenant.update({
        where: { id: principal.tenantId },
        data: { name: input.name },
      });
      await appendAuditEvent(tx, {
        actor: auditActorOf(principal),
        action: 'tenant.rename',
        target: { type: 'tenant', id: tenant.id },
        outcome: 'success',
        data: { from: before.name, to: tenant.name },
      });
      return toTenantView(tenant);
    });
  }
}
