import { type CommandInput, listDefinitionVariables } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { variableHolderOf } from './definition-variable.holder';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

/** `definitions.variables.list`: names of one holder's variables (all set); values are never selected. */
@HandlesCommand(listDefinitionVariables)
export class ListDefinitionVariablesUseCase implements UseCaseFor<typeof listDefinitionVariables> {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof listDefinitionVariables>>) {
    return this.db.withTenant(principal.tenantId, async (tx) => {
      const holder = await variableHolderOf(tx, principal, input);
      const rows = await tx.definitionVariable.findMany({
        where: { holder: holder.holder },
        select: { name: true, updatedAt: true },
        orderBy: { name: 'asc' },
      });
      return {
        items: rows.map((row) => ({
          scope: holder.scope,
          workspaceId: holder.workspaceId,
          name: row.name,
          set: true,
          updatedAt: row.updatedAt.toISOString(),
        })),
      };
    });
  }
}
