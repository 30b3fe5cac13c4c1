import { type CommandInput, listDefinitionSources } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { findVisibleWorkspace } from '../auth/workspace-visibility';
import { mayReadSource, type DefinitionTierName } from './definition-access';
import { toSourceSummary } from './definition-source-view';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

/** `definitions.sources.list`: tenant-wide sources, the workspace's (when given) and the caller's own. */
@HandlesCommand(listDefinitionSources)
export class ListDefinitionSourcesUseCase implements UseCaseFor<typeof listDefinitionSources> {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof listDefinitionSources>>) {
    return this.db.withTenant(principal.tenantId, async (tx) => {
      const workspaceId =
        input.workspaceId === undefined
          ? null
          : (await findVisibleWorkspace(tx, principal, input.workspaceId)).id;
      const rows = await tx.definitionSource.findMany({
        where: {
          OR: [
            { tier: { in: ['managed', 'plugin'] } },
            ...(workspaceId === null ? [] : [{ tier: 'project' as const, workspaceId }]),
            ...(principal.userId === null
              ? []
              : [{ tier: { in: ['user' as const, 'local' as const] }, ownerUserId: principal.userId }]),
          ],
        },
        orderBy: { origin: 'asc' },
      });
      const items = rows
        .filter((row) => mayReadSource(principal, { ...row, tier: row.tier as DefinitionTierName }))
        .map(toSourceSummary);
      return { items };
    });
  }
}
