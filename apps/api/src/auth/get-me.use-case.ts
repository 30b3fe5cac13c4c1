import { type CommandInput, whoAmI } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

/** `me.get`: the caller as the API sees it (effective scopes, not the token's raw list). */
@HandlesCommand(whoAmI)
export class GetMeUseCase implements UseCaseFor<typeof whoAmI> {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async execute({ principal }: UseCaseArgs<CommandInput<typeof whoAmI>>) {
    const userId = principal.userId;
    const user =
      userId === null
        ? null
        : await this.db.withTenant(principal.tenantId, (tx) =>
            tx.user.findUnique({ where: { id: userId }, select: { email: true } }),
          );
    return {
      tenantId: principal.tenantId,
      tenantSlug: principal.tenantSlug,
      userId,
      email: user?.email ?? null,
      role: principal.role,
      via: principal.via,
      scopes: [...principal.scopes],
    };
  }
}
